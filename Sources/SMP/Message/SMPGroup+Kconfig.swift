extension SMPGroup {
    /// Where a firmware turns this group on, for the hint of a "not supported" answer
    /// (the descriptor's ``SMPGroupDescriptor/enablingOption``).
    public var enablingOption: String { descriptor?.enablingOption ?? "CONFIG_MCUMGR_GRP_* options" }
}
