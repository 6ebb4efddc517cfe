extension SMPGroupDescriptor {
    /// The transport group (11).
    public static let transport = SMPGroupDescriptor(
        group: .transport, name: "transport", title: "transport",
        enablingOption: "CONFIG_MCUMGR_GRP_* options",
        errors: TransportGroupError.self)
}
