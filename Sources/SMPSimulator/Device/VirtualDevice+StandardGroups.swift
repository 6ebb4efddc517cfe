extension VirtualDevice {
    /// The groups a device has besides OS and image (file system, shell, statistics, settings,
    /// enumeration, Zephyr basic, SUIT, and the Mynewt groups), each built from the configuration.
    /// A group the configuration turns off is left out, so that its requests answer rc 8.
    static func standardGroups(for configuration: VirtualDeviceConfiguration) -> [any SimulatedGroup] {
        var groups: [any SimulatedGroup] = []
        if let statistics = configuration.statistics { groups.append(StatisticsGroup(configuration: statistics)) }
        if let log = configuration.log { groups.append(LogGroup(configuration: log)) }
        if configuration.crashTest { groups.append(CrashGroup()) }
        if let tests = configuration.runTests { groups.append(RunGroup(tests: tests)) }
        if configuration.enumeration { groups.append(EnumerationGroup()) }
        let storage = SimulatedStoragePartition(settings: configuration.settings?.savedValues ?? [:])
        if let shell = configuration.shell { groups.append(ShellGroup(configuration: shell)) }
        if let settings = configuration.settings { groups.append(SettingsGroup(configuration: settings, storage: storage)) }
        if configuration.zephyrBasic { groups.append(ZephyrBasicGroup(storage: storage)) }
        if let suit = configuration.suit { groups.append(SUITGroup(configuration: suit)) }
        if let fileSystem = configuration.fileSystem { groups.append(FileSystemGroup(configuration: fileSystem)) }
        return groups
    }
}
