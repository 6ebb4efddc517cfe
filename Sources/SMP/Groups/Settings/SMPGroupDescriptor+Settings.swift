import CBOR

extension SMPGroup {
    /// Settings (formerly config).
    public static let settings = SMPGroup(rawValue: 3)
}

extension SMPGroupDescriptor {
    /// The settings group (3).
    public static let settings = SMPGroupDescriptor(
        group: .settings, name: "settings", title: "settings", firmwareName: "settings mgmt",
        enablingOption: "CONFIG_MCUMGR_GRP_SETTINGS",
        commands: [
            .init(SettingsCommandID.readWrite, "readWrite", [SettingsRead.self, SettingsWrite.self]),
            .init(SettingsCommandID.delete, "delete", [SettingsDelete.self]),
            .init(SettingsCommandID.commit, "commit", [SettingsCommit.self]),
            .init(SettingsCommandID.loadSave, "loadSave", [SettingsLoad.self, SettingsSave.self]),
        ],
        errors: SettingsGroupError.self,
        probe: SMPRequest(
            group: .settings, command: SettingsCommandID.readWrite, operation: .read, payload: ["name": .text("")],
            name: "probe settings"))
}
