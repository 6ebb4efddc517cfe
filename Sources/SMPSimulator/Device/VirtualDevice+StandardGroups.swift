extension VirtualDevice {
    /// The groups a device has besides OS and image (file system, shell, statistics, settings,
    /// enumeration, Zephyr basic, SUIT, and the Mynewt groups), each built from the configuration.
    /// A group the configuration turns off is left out, so that its requests answer rc 8.
    static func standardGroups(for configuration: VirtualDeviceConfiguration) -> [any SimulatedGroup] {
        var groups: [any SimulatedGroup] = []
        let storage = SimulatedStoragePartition(settings: configuration.settings?.savedValues ?? [:])
        if let shell = configuration.shell { groups.append(ShellGroup(configuration: shell)) }
        if let settings = configuration.settings { groups.append(SettingsGroup(configuration: settings, storage: storage)) }
        if configuration.zephyrBasic { groups.append(ZephyrBasicGroup(storage: storage)) }
        return groups
    }
}
