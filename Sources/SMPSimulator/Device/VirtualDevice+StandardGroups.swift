extension VirtualDevice {
    /// The groups a device has besides OS and image (file system, shell, statistics, settings,
    /// enumeration, Zephyr basic, SUIT, and the Mynewt groups), each built from the configuration.
    /// A group the configuration turns off is left out, so that its requests answer rc 8.
    static func standardGroups(for configuration: VirtualDeviceConfiguration) -> [any SimulatedGroup] {
        var groups: [any SimulatedGroup] = []
        if let fileSystem = configuration.fileSystem { groups.append(FileSystemGroup(configuration: fileSystem)) }
        return groups
    }
}
