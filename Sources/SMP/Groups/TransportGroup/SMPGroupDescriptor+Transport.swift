extension SMPGroup {
    /// Transport management (Zephyr 4.5, experimental).
    public static let transport = SMPGroup(rawValue: 11)
}

extension SMPGroupDescriptor {
    /// The transport group (11).
    public static let transport = SMPGroupDescriptor(
        group: .transport, name: "transport", title: "transport",
        enablingOption: "CONFIG_MCUMGR_GRP_* options",
        errors: TransportGroupError.self)
}
