extension SMPGroup {
    /// Zephyr basic: storage erase.
    public static let zephyrBasic = SMPGroup(rawValue: 63)
}

extension SMPGroupDescriptor {
    /// The Zephyr basic group (63).
    public static let zephyrBasic = SMPGroupDescriptor(
        group: .zephyrBasic, name: "zephyr-basic", title: "Zephyr basic", firmwareName: "zephyr basic",
        enablingOption: "CONFIG_MCUMGR_GRP_ZBASIC with CONFIG_MCUMGR_GRP_ZBASIC_STORAGE_ERASE",
        commands: [
            .init(0, "eraseStorage", [ZephyrBasicEraseStorage.self]),
        ],
        errors: ZephyrBasicGroupError.self)
}
