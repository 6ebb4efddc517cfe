import SMP

/// How a ``VirtualDevice`` is built: its buffers, its protocol flavour, and what its OS group reports.
///
/// The defaults describe a Zephyr device with the UDP transport: 2048-byte buffers, SMP v2,
/// MCUboot in swap-using-move mode, an unset real-time clock.
public struct VirtualDeviceConfiguration: Sendable, Hashable {
    /// `MCUMGR_TRANSPORT_NETBUF_SIZE`: the largest request (header included) the device accepts,
    /// and the largest response it can build. Larger requests are dropped without an answer;
    /// larger responses become `MGMT_ERR_EMSGSIZE` (rc 7). Clamped to 64…65543.
    public var bufferSize: Int {
        didSet { bufferSize = Self.clampBufferSize(bufferSize) }
    }
    /// `MCUMGR_TRANSPORT_NETBUF_COUNT`, as reported by MCUmgr parameters. At least 1.
    public var bufferCount: Int {
        didSet { bufferCount = max(1, bufferCount) }
    }
    /// Zephyr or legacy protocol behaviour.
    public var flavour: SMPServerFlavour
    /// What OS/application info reports.
    public var identity: SimulatedIdentity
    /// Bootloader info's name (`"MCUboot"`, `"SUIT"`, …).
    public var bootloaderName: String
    /// Bootloader info's `mode`.
    public var bootloaderMode: MCUbootMode
    /// Whether bootloader info reports `"no-downgrade": true` (MCUboot downgrade prevention).
    public var noDowngrade: Bool
    /// The threads task statistics lists. Use ``SimulatedTask/namedByPriority(_:)`` for
    /// duplicate names.
    public var tasks: [SimulatedTask]
    /// Also report `cswcnt`, `last_checkin` and `next_checkin` (always 0), as Zephyr does with
    /// `MCUMGR_GRP_OS_TASKSTAT_ONLY_SUPPORTED_STATS=n`.
    public var taskStatisticsAllFields: Bool
    /// Memory pools for memory pool statistics (OS command 3, Mynewt); nil answers
    /// `MGMT_ERR_ENOTSUP` (rc 8) as Zephyr does.
    public var memoryPools: [SimulatedMemoryPool]?
    /// Whether console echo control (OS command 1) is accepted Mynewt-style (`{"echo": int}`,
    /// write); false answers rc 8 as Zephyr does.
    public var consoleEchoSupported: Bool
    /// The time the real-time clock holds at start; nil leaves it unset, so that reading it
    /// answers OS error 4 (`RTC_NOT_SET`) until it is set.
    public var initialDateTime: SMPDateTime?
    /// `MCUMGR_GRP_OS_DATETIME_MS`: date-time carries milliseconds (read prints them unpadded;
    /// write accepts `.mmm`).
    public var dateTimeMilliseconds: Bool
    /// What the application's reset hook does.
    public var resetHook: SimulatedResetHook
    /// `MCUMGR_GRP_OS_RESET_MS`: how long after its answer the device resets. Until then it
    /// keeps answering with its old state.
    public var resetDelay: Duration
    /// How long the device is silent after the reset takes effect: MCUboot's swap and the
    /// application's start. Frames arriving meanwhile are dropped without an answer.
    public var bootTime: Duration
    /// `MCUMGR_GRP_OS_INFO_MAX_RESPONSE_SIZE`: the OS info output buffer, terminating NUL
    /// included, so the output holds at most one character less; longer output gives rc 7.
    public var infoMaximumResponseSize: Int
    /// The image management group (1); nil leaves it out, so that its requests answer rc 8.
    public var images: SimulatedImageConfiguration?
    /// The statistics group (2); nil leaves it out, so that its requests answer rc 8.
    public var statistics: SimulatedStatisticsConfiguration?
    /// Whether the device has the enumeration group (10, Zephyr ≥ 3.5); by default only the
    /// Zephyr flavour has it.
    public var enumeration: Bool
    /// Mynewt's log group (4); nil (the default) leaves it out.
    public var log: SimulatedLogConfiguration?
    /// Whether the device has Mynewt's crash test group (5); off by default.
    public var crashTest: Bool
    /// The suites of Mynewt's run-time test group (7); nil (the default) leaves the group out.
    public var runTests: [String]?
    /// The shell group (9); nil leaves it out.
    public var shell: SimulatedShellConfiguration?
    /// The settings group (3); nil leaves it out.
    public var settings: SimulatedSettingsConfiguration?
    /// Whether the device has the Zephyr basic group (63): erase storage.
    public var zephyrBasic: Bool
    /// The SUIT group (66, nRF Connect SDK); nil (the default: only SUIT devices have it) leaves
    /// it out. A SUIT device also reports bootloader `"SUIT"` and has no image group.
    public var suit: SimulatedSUITConfiguration?
    /// The file system group (8); nil leaves it out, so that its requests answer rc 8.
    public var fileSystem: SimulatedFileSystemConfiguration?
    /// MCUboot serial recovery, reached by a reset with boot mode 1 (bootloader); nil (the
    /// default): such a reset boots the application again.
    public var recovery: MCUbootRecoveryConfiguration?
    /// Whether the device starts in serial recovery (needs ``recovery``).
    public var startsInRecovery = false
    /// Whether the application answers OS bootloader info (`CONFIG_MCUMGR_GRP_OS_BOOTLOADER_INFO`);
    /// false answers `MGMT_ERR_ENOTSUP`, like the mps2 fixture's application.
    public var bootloaderInfo = true

    /// Creates a configuration.
    public init(
        bufferSize: Int = 2048, bufferCount: Int = 4, flavour: SMPServerFlavour = .zephyr,
        identity: SimulatedIdentity = SimulatedIdentity(), bootloaderName: String = "MCUboot",
        bootloaderMode: MCUbootMode = .swapUsingMove, noDowngrade: Bool = false,
        tasks: [SimulatedTask] = SimulatedTask.zephyrDefaults, taskStatisticsAllFields: Bool = false,
        memoryPools: [SimulatedMemoryPool]? = nil, consoleEchoSupported: Bool = false,
        initialDateTime: SMPDateTime? = nil, dateTimeMilliseconds: Bool = true,
        resetHook: SimulatedResetHook = .none, resetDelay: Duration = .milliseconds(250),
        bootTime: Duration = .zero, infoMaximumResponseSize: Int = 256, images: SimulatedImageConfiguration? = nil,
        statistics: SimulatedStatisticsConfiguration? = SimulatedStatisticsConfiguration(), enumeration: Bool? = nil,
        log: SimulatedLogConfiguration? = nil, crashTest: Bool = false, runTests: [String]? = nil,
        shell: SimulatedShellConfiguration? = SimulatedShellConfiguration(),
        settings: SimulatedSettingsConfiguration? = SimulatedSettingsConfiguration(), zephyrBasic: Bool = true,
        suit: SimulatedSUITConfiguration? = nil,
        fileSystem: SimulatedFileSystemConfiguration? = SimulatedFileSystemConfiguration()
    ) {
        self.bufferSize = Self.clampBufferSize(bufferSize)
        self.bufferCount = max(1, bufferCount)
        self.flavour = flavour
        self.identity = identity
        self.bootloaderName = bootloaderName
        self.bootloaderMode = bootloaderMode
        self.noDowngrade = noDowngrade
        self.tasks = tasks
        self.taskStatisticsAllFields = taskStatisticsAllFields
        self.memoryPools = memoryPools
        self.consoleEchoSupported = consoleEchoSupported
        self.initialDateTime = initialDateTime
        self.dateTimeMilliseconds = dateTimeMilliseconds
        self.resetHook = resetHook
        self.resetDelay = resetDelay
        self.bootTime = bootTime
        self.infoMaximumResponseSize = infoMaximumResponseSize
        self.images = images
        self.statistics = statistics
        self.enumeration = enumeration ?? (flavour == .zephyr)
        self.log = log
        self.crashTest = crashTest
        self.runTests = runTests
        self.shell = shell
        self.settings = settings
        self.zephyrBasic = zephyrBasic
        self.suit = suit
        self.fileSystem = fileSystem
    }

    /// A device like an older (pre-SMP-v2) server with Mynewt's extras: legacy flavour,
    /// console echo control, memory pool statistics, and the log, crash and run groups; no
    /// Zephyr shell, settings or Zephyr basic group.
    public static var mynewtLike: VirtualDeviceConfiguration {
        VirtualDeviceConfiguration(
            flavour: .legacy, taskStatisticsAllFields: true, memoryPools: SimulatedMemoryPool.mynewtDefaults,
            consoleEchoSupported: true, log: SimulatedLogConfiguration(), crashTest: true,
            runTests: ["os_test", "json_test", "util_test"], shell: nil, settings: nil, zephyrBasic: false)
    }

    private static func clampBufferSize(_ size: Int) -> Int {
        min(65_535 + SMPHeader.size, max(64, size))
    }
}
