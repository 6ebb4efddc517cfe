import SMPSimulator

extension VirtualDeviceConfiguration {
    /// This configuration with only OS, image, statistics and enumeration (as configured): no file
    /// system, shell, settings, Zephyr basic or SUIT group, for tests that list the device's groups.
    public func withOnlyCoreGroups() -> VirtualDeviceConfiguration {
        var configuration = self
        configuration.fileSystem = nil
        configuration.shell = nil
        configuration.settings = nil
        configuration.zephyrBasic = false
        configuration.suit = nil
        return configuration
    }
}
