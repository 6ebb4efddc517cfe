/// What a virtual device reports about itself in OS/application info (OS command 7).
///
/// Each field is the text for one format character; the defaults are what a Zephyr build for a
/// Cortex-M33 board reports.
public struct SimulatedIdentity: Sendable, Hashable {
    /// `s`: kernel name.
    public var kernelName: String
    /// `n`: node name (Zephyr: the network host name).
    public var nodeName: String
    /// `r`: kernel release (Zephyr: `BUILD_VERSION`, the `git describe` of the build).
    public var release: String
    /// `v`: kernel version.
    public var version: String
    /// `b`: build date and time; nil when the device is built without
    /// `MCUMGR_GRP_OS_INFO_BUILD_DATE_TIME`, which makes `b` an invalid format character.
    public var buildDate: String?
    /// `m`: machine (Zephyr: `CONFIG_ARCH`).
    public var machine: String
    /// `p`: processor.
    public var processor: String
    /// `i`: hardware platform (Zephyr: `CONFIG_BOARD`, plus `@revision` when set).
    public var platform: String
    /// `o`: operating system.
    public var operatingSystem: String

    /// Creates an identity.
    public init(
        kernelName: String = "Zephyr", nodeName: String = "zephyr", release: String = "v4.1.0",
        version: String = "4.1.0", buildDate: String? = "2025-03-07T09:30:00", machine: String = "arm",
        processor: String = "cortex-m33", platform: String = "virtual_smp_device", operatingSystem: String = "Zephyr"
    ) {
        self.kernelName = kernelName
        self.nodeName = nodeName
        self.release = release
        self.version = version
        self.buildDate = buildDate
        self.machine = machine
        self.processor = processor
        self.platform = platform
        self.operatingSystem = operatingSystem
    }
}
