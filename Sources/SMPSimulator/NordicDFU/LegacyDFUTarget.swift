import Crypto
import NordicDFU
import SMPConsoleFraming

/// A legacy DFU bootloader (nRF5 SDK 11 `dfu_transport_ble.c`, `dfu_single_bank.c`,
/// `dfu_init_template.c`; the Adafruit nRF52 bootloader built from them) as a pure state
/// machine: each Control Point or Packet write in, the notifications it causes out.
///
/// States as the SDK's: idle → (Start and its sizes) ready → (Init bytes) receiving the init
/// packet → (Init complete, the packet accepted) receiving firmware → (Validate) waiting for
/// activation → (Activate and reset) idle, the image installed. A Packet write is read as what
/// the last Control Point op announced (sizes, init packet, firmware). Answers:
///
/// - Start: "not supported" for an application together with a SoftDevice or bootloader, sizes
///   that are not multiples of 4, or a Packet write other than 12 bytes (4 in "version 1"
///   mode); "data size exceeds limit" beyond the flash areas; "invalid state" unless idle.
/// - Init complete: "operation failed" for a packet that does not decode, a device type or
///   revision other than the configured one, an application version lower than the installed
///   one, or a SoftDevice list without 0xFFFE or the installed SoftDevice.
/// - Firmware: a receipt notification after every n packets stored, none for the last one,
///   which is answered `[10 03 01]`; "invalid state" before an accepted init packet (none is
///   needed in version 1 mode), "data size exceeds limit" past the announced size.
/// - Validate: "CRC error" when the image's CRC-16 (or length and SHA-256) differs from the
///   init packet's; "invalid state" before the whole image arrived.
/// - Reset, and Activate and reset, reset the bootloader to idle (an activation after a
///   successful Validate installs the image first). Nothing of a transfer survives a reset.
///
/// The init packet is stored as received, without the SDK's padding to 4 bytes.
public struct LegacyDFUTarget: Sendable {
    /// Where the bootloader stands.
    public enum State: Sendable, Hashable {
        /// Waiting for Start.
        case idle
        /// Started (the flash erased), waiting for the init packet.
        case ready
        /// Receiving the init packet.
        case receivingInitPacket
        /// The init packet accepted (or none needed): receiving the image.
        case receivingFirmware
        /// The image validated: waiting for Activate and reset.
        case waitingForActivation
    }

    /// How the bootloader is built and what the device holds.
    public struct Configuration: Sendable, Hashable {
        /// Answer like an nRF5 SDK ≤ 6 bootloader ("version 1"): Start takes the application's
        /// size alone (4 bytes on Packet; a mode byte is ignored, 12 bytes are "not supported"),
        /// there is no init packet (Init is "not supported"), and only applications are taken.
        public var version1: Bool
        /// The Adafruit bootloader's limit on the receipt notification interval (8; its README),
        /// nil for none. Beyond it, the packet after the 8th since the last notification finds
        /// the receive buffers full: it is answered `[10 03 06]` (operation failed) and dropped,
        /// and the packets after it are stored in its place, so the image is damaged. (This
        /// models the SDK's `hci_mem_pool` running out while flash writes lag behind.)
        public var maximumReceiptNotificationInterval: Int?
        /// Refuse sizes and packets that are not multiples of 4 bytes (the SDK's `IS_WORD_SIZED`).
        public var requiresWordSizedImages: Bool
        /// The device type the init packet must name; nil accepts any (the SDK's `0xFFFF`, empty).
        public var deviceType: UInt16?
        /// The device revision the init packet must name; nil accepts any.
        public var deviceRevision: UInt16?
        /// The installed application's version; an init packet's lower version is refused
        /// (0xFFFFFFFF in the packet: any). Nil accepts any.
        public var installedApplicationVersion: UInt32?
        /// The installed SoftDevice's firmware ID, which the init packet's list must hold (or 0xFFFE).
        public var softDeviceID: UInt16
        /// The largest image (SoftDevice, bootloader and application together).
        public var maximumImageSize: Int
        /// The largest bootloader.
        public var maximumBootloaderSize: Int
        /// The largest init packet (the SDK's buffer).
        public var maximumInitPacketSize: Int
        /// Damage done to the packets received.
        public var faults: LegacyDFUTargetFaults

        /// Creates a configuration: an SDK 11 bootloader on an nRF52832 with S132 v2.0.0 (0x0081),
        /// taking any device type, revision and application version.
        public init(
            version1: Bool = false, maximumReceiptNotificationInterval: Int? = nil, requiresWordSizedImages: Bool = true,
            deviceType: UInt16? = nil, deviceRevision: UInt16? = nil, installedApplicationVersion: UInt32? = nil,
            softDeviceID: UInt16 = 0x0081, maximumImageSize: Int = 0x5_8000, maximumBootloaderSize: Int = 0x6000,
            maximumInitPacketSize: Int = 128, faults: LegacyDFUTargetFaults = LegacyDFUTargetFaults()
        ) {
            self.version1 = version1
            self.maximumReceiptNotificationInterval = maximumReceiptNotificationInterval
            self.requiresWordSizedImages = requiresWordSizedImages
            self.deviceType = deviceType
            self.deviceRevision = deviceRevision
            self.installedApplicationVersion = installedApplicationVersion
            self.softDeviceID = softDeviceID
            self.maximumImageSize = maximumImageSize
            self.maximumBootloaderSize = maximumBootloaderSize
            self.maximumInitPacketSize = maximumInitPacketSize
            self.faults = faults
        }
    }

    /// What one write leads to.
    public struct Reply: Sendable, Hashable {
        /// The notifications to send, in order.
        public var notifications: [LegacyDFUNotification] = []
        /// The bootloader reset (after Reset, or Activate and reset): the link drops.
        public var reset = false
    }

    /// An image the bootloader validated and installed.
    public struct InstalledImage: Sendable, Hashable {
        /// The Start mode bits (SoftDevice 1, bootloader 2, application 4).
        public var mode: UInt8
        /// The init packet (empty when none was sent).
        public var initPacket: [UInt8]
        /// The image.
        public var firmware: [UInt8]

        /// Creates a record.
        public init(mode: UInt8, initPacket: [UInt8], firmware: [UInt8]) {
            self.mode = mode
            self.initPacket = initPacket
            self.firmware = firmware
        }
    }

    /// What a Packet write is, by the last Control Point op.
    private enum PacketKind { case none, sizes, initPacket, firmware }

    /// How it is built.
    public let configuration: Configuration
    /// Where it stands.
    public private(set) var state = State.idle
    /// What it received and answered.
    public private(set) var statistics = LegacyDFUTargetStatistics()
    /// The images installed, oldest first.
    public private(set) var installed: [InstalledImage] = []
    /// The image received so far in this transfer.
    public private(set) var receivedFirmware: [UInt8] = []

    private var packetKind = PacketKind.none
    private var mode: UInt8 = 0
    private var imageSize = 0
    private var overflowed = false
    private var initPacket: [UInt8] = []
    private var decodedInitPacket: LegacyInitPacket?
    private var notificationInterval = 0
    private var packetsSinceNotification = 0
    private var packetNumber = 0
    private var generator: SeededGenerator

    /// A bootloader with nothing received.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        generator = SeededGenerator(seed: configuration.faults.seed)
    }

    // MARK: Control Point

    /// Handles a write to the Control Point.
    public mutating func controlPoint(_ bytes: [UInt8]) -> Reply {
        guard let request = LegacyDFURequest.parse(bytes) else {
            statistics.malformedRequests += 1
            guard let first = bytes.first, let op = LegacyDFUOpCode(rawValue: first) else { return Reply() }
            return answer(op, .notSupported)
        }
        statistics.requests[request.opCode, default: 0] += 1
        switch request {
        case .start(let mode):
            packetKind = .sizes
            self.mode = mode
            return Reply()
        case .startVersion1:
            packetKind = .sizes
            mode = DFUFirmwareType.application.legacyModeBits
            return Reply()
        case .initializeBegin:
            guard !configuration.version1 else { return answer(.initialize, .notSupported) }
            packetKind = .initPacket
            return Reply()
        case .initializeComplete:
            guard !configuration.version1 else { return answer(.initialize, .notSupported) }
            packetKind = .initPacket
            return completeInitPacket()
        case .receiveFirmware:
            packetKind = .firmware
            return Reply()
        case .validate:
            return validate()
        case .activateAndReset:
            if state == .waitingForActivation {
                installed.append(InstalledImage(mode: mode, initPacket: initPacket, firmware: receivedFirmware))
                statistics.installs += 1
            }
            return reset()
        case .reset:
            return reset()
        case .reportReceivedSize:
            var reply = Reply()
            reply.notifications.append(.response(LegacyDFUResponse(request: .reportReceivedSize, bytesReceived: UInt32(receivedFirmware.count))))
            statistics.responses += 1
            return reply
        case .receiptNotificationRequest(let interval):
            notificationInterval = Int(interval)
            packetsSinceNotification = 0
            return Reply()
        }
    }

    private mutating func reset() -> Reply {
        statistics.resets += 1
        state = .idle
        packetKind = .none
        receivedFirmware = []
        initPacket = []
        decodedInitPacket = nil
        imageSize = 0
        overflowed = false
        notificationInterval = 0
        packetsSinceNotification = 0
        var reply = Reply()
        reply.reset = true
        return reply
    }

    // MARK: Packet

    /// Handles a write to the Packet characteristic.
    public mutating func packet(_ bytes: [UInt8]) -> Reply {
        switch packetKind {
        case .none:
            // The SDK cannot tell what the packet is: it is ignored, unanswered.
            statistics.ignoredPackets += 1
            return Reply()
        case .sizes:
            return start(bytes)
        case .initPacket:
            return receiveInitPacket(bytes)
        case .firmware:
            return receiveFirmware(bytes)
        }
    }

    private mutating func start(_ bytes: [UInt8]) -> Reply {
        let expected = configuration.version1 ? 4 : 12
        guard bytes.count == expected else { return answer(.start, .notSupported) }
        let size: (Int) -> Int = { offset in (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << ($1 * 8) } }
        let (softDevice, bootloader, application) = configuration.version1 ? (0, 0, size(0)) : (size(0), size(4), size(8))
        if application > 0 && (softDevice > 0 || bootloader > 0) { return answer(.start, .notSupported) }
        if configuration.requiresWordSizedImages, [softDevice, bootloader, application].contains(where: { $0 % 4 != 0 }) {
            return answer(.start, .notSupported)
        }
        let total = softDevice + bootloader + application
        if bootloader > configuration.maximumBootloaderSize || total > configuration.maximumImageSize {
            return answer(.start, .dataSizeExceedsLimit)
        }
        guard state == .idle else { return answer(.start, .invalidState) }
        imageSize = total
        receivedFirmware = []
        initPacket = []
        decodedInitPacket = nil
        overflowed = false
        packetKind = .none
        // SDK ≤ 6 takes no init packet: the image follows at once.
        state = configuration.version1 ? .receivingFirmware : .ready
        return answer(.start, .success)
    }

    private mutating func receiveInitPacket(_ bytes: [UInt8]) -> Reply {
        guard state == .ready || state == .receivingInitPacket else { return answer(.initialize, .invalidState) }
        state = .receivingInitPacket
        guard initPacket.count + bytes.count <= configuration.maximumInitPacketSize else { return answer(.initialize, .operationFailed) }
        initPacket += bytes
        statistics.initPacketBytesReceived += bytes.count
        return Reply()
    }

    private mutating func completeInitPacket() -> Reply {
        guard state == .receivingInitPacket else { return answer(.initialize, .invalidState) }
        guard let packet = try? LegacyInitPacket(bytes: initPacket), accepts(packet) else {
            statistics.refusedInitPackets += 1
            initPacket = []
            return answer(.initialize, .operationFailed)
        }
        decodedInitPacket = packet
        state = .receivingFirmware
        return answer(.initialize, .success)
    }

    /// The checks of `dfu_init_prevalidate`.
    private func accepts(_ packet: LegacyInitPacket) -> Bool {
        if let type = configuration.deviceType, packet.deviceType != type { return false }
        if let revision = configuration.deviceRevision, packet.deviceRevision != revision { return false }
        if let version = configuration.installedApplicationVersion, packet.applicationVersion != 0xFFFF_FFFF,
            packet.applicationVersion < version
        {
            return false
        }
        return packet.softDeviceRequirements.contains(0xFFFE) || packet.softDeviceRequirements.contains(configuration.softDeviceID)
    }

    private mutating func receiveFirmware(_ bytes: [UInt8]) -> Reply {
        packetNumber += 1
        let faults = configuration.faults
        let lostAtRandom = generator.chance(faults.lostPacketFraction)
        if faults.lostPackets.contains(packetNumber) || lostAtRandom {
            statistics.lostPackets += 1
            return Reply()
        }
        statistics.dataPackets += 1
        guard state == .receivingFirmware else { return answer(.receiveFirmware, .invalidState) }
        if configuration.requiresWordSizedImages, bytes.count % 4 != 0 { return answer(.receiveFirmware, .notSupported) }
        if let limit = configuration.maximumReceiptNotificationInterval, notificationInterval > limit, packetsSinceNotification >= limit {
            statistics.overflows += 1
            packetsSinceNotification = 0
            return answer(.receiveFirmware, .operationFailed)
        }
        guard !overflowed, receivedFirmware.count + bytes.count <= imageSize else {
            // The SDK blocks every later write too.
            overflowed = true
            return answer(.receiveFirmware, .dataSizeExceedsLimit)
        }
        receivedFirmware += bytes
        statistics.dataBytesReceived += bytes.count
        if receivedFirmware.count == imageSize { return answer(.receiveFirmware, .success) }
        guard notificationInterval > 0 else { return Reply() }
        packetsSinceNotification += 1
        guard packetsSinceNotification == notificationInterval else { return Reply() }
        packetsSinceNotification = 0
        statistics.notifications += 1
        var reply = Reply()
        reply.notifications.append(.receipt(bytesReceived: UInt32(receivedFirmware.count)))
        return reply
    }

    // MARK: Validation

    private mutating func validate() -> Reply {
        guard state == .receivingFirmware, receivedFirmware.count == imageSize, !overflowed else { return answer(.validate, .invalidState) }
        if let packet = decodedInitPacket {
            switch packet.integrity {
            case .crc16(let crc):
                guard CRC16XMODEM.checksum(receivedFirmware, seed: 0xFFFF) == crc else { return answer(.validate, .crcError) }
            case let .sha256(length, digest, _):
                guard Int(length) == receivedFirmware.count, Array(SHA256.hash(data: receivedFirmware)) == digest else {
                    return answer(.validate, .crcError)
                }
            }
        }
        state = .waitingForActivation
        return answer(.validate, .success)
    }

    private mutating func answer(_ op: LegacyDFUOpCode, _ status: LegacyDFUStatus) -> Reply {
        statistics.responses += 1
        if status != .success { statistics.refusals[op, default: 0] += 1 }
        var reply = Reply()
        reply.notifications.append(.response(LegacyDFUResponse(request: op, status: status)))
        return reply
    }
}
