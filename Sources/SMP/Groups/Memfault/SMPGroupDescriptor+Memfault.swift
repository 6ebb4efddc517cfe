extension SMPGroupDescriptor {
    /// The Memfault group (128).
    public static let memfault = SMPGroupDescriptor(
        group: .memfault, name: "memfault", title: "Memfault",
        enablingOption: "CONFIG_MCUMGR_GRP_* options")
}
