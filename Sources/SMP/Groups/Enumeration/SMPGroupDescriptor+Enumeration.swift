extension SMPGroup {
    /// Group enumeration (Zephyr ≥ 3.5).
    public static let enumeration = SMPGroup(rawValue: 10)
}

extension SMPGroupDescriptor {
    /// The enumeration group (10).
    public static let enumeration = SMPGroupDescriptor(
        group: .enumeration, name: "enum", title: "enumeration", firmwareName: "enum mgmt",
        enablingOption: "CONFIG_MCUMGR_GRP_ENUM (Zephyr 3.5 or later; without it, a device's groups are found by probing each)",
        commands: [
            .init(EnumerationCommandID.count, "count", [EnumerationCount.self]),
            .init(EnumerationCommandID.list, "list", [EnumerationList.self]),
            .init(EnumerationCommandID.single, "single", [EnumerationSingle.self]),
            .init(EnumerationCommandID.details, "details", [EnumerationDetails.self]),
        ],
        errors: EnumerationGroupError.self)
}
