/// What MCUboot's serial recovery (`boot_serial`) answers, from its Kconfig choices.
///
/// The defaults are those of the `mps2_an385 serial_recovery` fixture: no echo, no image state,
/// image hashes listed, no slot info, no storage erase, a 1024-byte receive buffer
/// (`CONFIG_BOOT_SERIAL_MAX_RECEIVE_SIZE`) reported as buf_count 1, and a 4-byte flash write unit.
public struct MCUbootRecoveryConfiguration: Sendable, Hashable {
    /// `CONFIG_BOOT_MGMT_ECHO`: OS echo (0/0) answers; without it, `MGMT_ERR_ENOTSUP`.
    public var echo: Bool
    /// `CONFIG_BOOT_SERIAL_IMG_GRP_IMAGE_STATE`: the image list carries flags (bootable,
    /// confirmed, active, pending, permanent) and image state write (test, confirm) works.
    public var imageState: Bool
    /// `CONFIG_BOOT_SERIAL_IMG_GRP_HASH`: the image list carries each image's SHA-256.
    public var imageHash: Bool
    /// `CONFIG_BOOT_SERIAL_IMG_GRP_SLOT_INFO`: image slot info (1/6) answers.
    public var slotInfo: Bool
    /// `CONFIG_BOOT_MGMT_CUSTOM_STORAGE_ERASE`: Zephyr basic storage erase (63/0) answers.
    public var storageErase: Bool
    /// The receive buffer (`MCUBOOT_SERIAL_MAX_RECEIVE_SIZE`), the `buf_size` MCUmgr parameters
    /// report. MCUboot's buffers hold one byte more (``receiveCapacity``). Clamped to 128…65543.
    public var bufferSize: Int {
        didSet { bufferSize = Self.clampBufferSize(bufferSize) }
    }
    /// The `buf_count` MCUmgr parameters report (`CONFIG_BOOT_MGMT_MCUMGR_PARAMS`); MCUboot
    /// reassembles one request at a time whatever this says. At least 1.
    public var bufferCount: Int {
        didSet { bufferCount = max(1, bufferCount) }
    }
    /// Whether MCUmgr parameters (0/6) answer (`CONFIG_BOOT_MGMT_MCUMGR_PARAMS`).
    public var parameters: Bool
    /// The flash write unit (`flash_area_align`): chunks are stored in whole units only, unless
    /// they end the image, and the answer names the offset after the last whole unit. 1…4096.
    public var writeAlignment: Int {
        didSet { writeAlignment = Self.clampWriteAlignment(writeAlignment) }
    }

    /// What a request may fill, header and (on console framing) length and CRC included:
    /// MCUboot declares its input and decoding buffers one byte larger than ``bufferSize`` (the
    /// mps2 fixture takes a 1021-byte request on console lines, not 1022).
    public var receiveCapacity: Int { bufferSize + 1 }

    /// How long after answering a reset MCUboot reboots (a fixed 250 ms in `bs_reset`).
    public static let resetDelay: Duration = .milliseconds(250)

    /// Creates a configuration; the defaults describe the mps2 `serial_recovery` fixture.
    public init(
        echo: Bool = false, imageState: Bool = false, imageHash: Bool = true, slotInfo: Bool = false,
        storageErase: Bool = false, bufferSize: Int = 1024, bufferCount: Int = 1, parameters: Bool = true,
        writeAlignment: Int = 4
    ) {
        self.echo = echo
        self.imageState = imageState
        self.imageHash = imageHash
        self.slotInfo = slotInfo
        self.storageErase = storageErase
        self.bufferSize = Self.clampBufferSize(bufferSize)
        self.bufferCount = max(1, bufferCount)
        self.parameters = parameters
        self.writeAlignment = Self.clampWriteAlignment(writeAlignment)
    }

    private static func clampBufferSize(_ size: Int) -> Int { min(65_543, max(128, size)) }

    private static func clampWriteAlignment(_ unit: Int) -> Int { min(4096, max(1, unit)) }
}

/// Which program of a ``VirtualDevice`` answers: the application's SMP server, MCUboot's
/// serial recovery, or MCUboot's firmware loader.
public enum SimulatedPersonality: String, Sendable, Hashable {
    /// The application (Zephyr's SMP server with the configured groups).
    case application
    /// MCUboot serial recovery (``MCUbootRecoveryConfiguration``).
    case recovery
    /// MCUboot's firmware loader (firmware-loader mode): a Zephyr SMP server image in image 0's
    /// slot 1, with the configured groups, whose image group writes the application's slot 0.
    case firmwareLoader = "firmware-loader"
}
