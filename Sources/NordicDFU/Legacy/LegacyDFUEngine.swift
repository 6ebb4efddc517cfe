import Logging
import SMP

/// Sends one image to a legacy DFU bootloader (nRF5 SDK ≤ 11, the Adafruit nRF52 bootloader, nRF
/// Loader's targets) over any ``LegacyDFUTransport``.
///
/// The flow (docs/protocol/nordic-legacy-dfu.md §23.3):
///
/// 1. Packet receipt notification (PRN) request: a notification after every n packets (1…10).
/// 2. Start `[01, mode]` with the mode bits of the image's type, then the SoftDevice, bootloader
///    and application sizes on Packet; the answer comes once the bootloader has erased the flash
///    it needs. A bootloader of nRF5 SDK ≤ 6 answers "not supported": an application is then
///    started again with the "version 1" Start `[01]` and its size alone (as Android's
///    `LegacyDfuImpl` does), and sent without its init packet, which those bootloaders do not
///    take in this form. "Invalid state" means an earlier update was interrupted: the bootloader
///    is reset and the transfer fails as ``LegacyDFUError/Kind/interruptedUpdate`` (transient).
/// 3. Init `[02 00]`, the init packet on Packet, `[02 01]`: the bootloader checks it (device,
///    application version, SoftDevice). Skipped for a bare application.
/// 4. Receive firmware `[03]`, then the image in packets of 20 bytes whatever the MTU; after every
///    n-th packet but the last, the receipt notification's byte count must be what was sent.
///    When no notification comes, the bootloader is asked how many bytes it received (op 07), so
///    that a lost packet is reported as such. The bootloader answers `[03]` after the last packet.
/// 5. Validate `[04]` (CRC-16 or SHA-256 of the image against the init packet), Activate and
///    reset `[05]` (not answered: the bootloader resets into the new image).
///
/// Legacy DFU cannot resume: the bootloader keeps nothing of an interrupted transfer that a
/// client could continue. When a transfer fails or the calling task is cancelled after Start,
/// the engine writes Reset `[06]` so that the bootloader drops the partial image; the next run
/// starts over from Start.
public actor LegacyDFUEngine {
    /// How a transfer is run.
    public struct Options: Sendable, Hashable {
        /// The largest receipt notification interval: nRF5 SDK ≤ 6 bootloaders lose packets
        /// beyond it (Android's `LegacyDfuImpl` forces 10 or less).
        public static let maximumReceiptNotificationInterval: UInt16 = 10

        /// A receipt notification after every this many packets, 1…10 (the Adafruit bootloader
        /// needs 8 or less).
        public var receiptNotificationInterval: UInt16

        /// Creates options; the interval is clamped to 1…10.
        public init(receiptNotificationInterval: UInt16 = 10) {
            self.receiptNotificationInterval = min(max(1, receiptNotificationInterval), Self.maximumReceiptNotificationInterval)
        }
    }

    /// The payload of one Packet write: 20 bytes, the ATT MTU of 23 less 3, whatever MTU the
    /// link has (legacy bootloaders stall on larger writes: Android-DFU-Library #111).
    public static let packetSize = 20

    /// The transport it talks through.
    public nonisolated let transport: any LegacyDFUTransport
    /// How it runs transfers.
    public nonisolated let options: Options
    private let logger: Logger
    private let clock: any Clock<Duration>
    private var report = LegacyDFUTransferReport()

    /// Creates an engine; nothing is sent until ``send(_:progress:)``.
    ///
    /// - Parameter clock: what the transfer rate in progress reports is measured with.
    public init(
        transport: any LegacyDFUTransport, options: Options = Options(), clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "nordic.dfu.legacy")
    ) {
        self.transport = transport
        self.options = options
        self.clock = clock
        self.logger = logger
    }

    /// Sends `image` (its init packet, if it has one, and its firmware); returns once the
    /// bootloader has validated it and was told to activate it.
    ///
    /// - Parameter progress: called after every data packet (`bytesSent`, `chunksSent` grow) and
    ///   whenever the bootloader confirms what it holds by a receipt notification or its answer
    ///   to the last packet (`acknowledged`).
    /// - Throws: ``LegacyDFUError`` (the bootloader's refusal with its name and hint, lost
    ///   packets, no answer, a lost link), or `CancellationError`.
    @discardableResult
    public func send(
        _ image: DFUUpgradeImage, progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> LegacyDFUTransferReport {
        let sizes = try Self.startSizes(image)
        report = LegacyDFUTransferReport()
        report.firmwareSize = image.firmware.count
        try await write(.receiptNotificationRequest(options.receiptNotificationInterval))
        do {
            try await start(image, sizes: sizes)
            if image.initPacket.isEmpty && !report.usedVersion1Start {
                // A bootloader that took Start with a mode is of SDK 7 or newer: it stores no image
                // without an accepted init packet.
                throw LegacyDFUError.initPacketRequired(image, when: "took Start with a mode (nRF5 SDK 7–11)")
            }
            if !image.initPacket.isEmpty {
                if report.usedVersion1Start {
                    logger.debug("an nRF5 SDK ≤ 6 bootloader: the image goes without its init packet")
                } else {
                    try await sendInitPacket(image.initPacket)
                }
            }
            try await sendFirmware(image.firmware, progress: ProgressCounter(report: progress, total: image.firmware.count, clock: clock))
            try await write(.validate)
            try await response(to: .validate)
        } catch {
            // Nothing of a partial transfer can be continued: drop it, so the next run's Start finds
            // the bootloader idle. Written even when the task was cancelled. A refused Start left
            // it idle, and an interrupted update was reset already.
            if let failure = error as? LegacyDFUError, failure.kind == .interruptedUpdate || (failure.request == .start && failure.kind != .noResponse) {
                throw error
            }
            logger.debug("\(error): resetting the bootloader")
            try? await transport.writeControlPoint(.reset)
            report.controlPointWrites += 1
            throw error
        }
        do {
            try await write(.activateAndReset)
        } catch let error as LegacyDFUError where error.kind == .disconnected {
            // The bootloader may reset before the write's answer arrives.
        }
        return report
    }

    /// The SoftDevice, bootloader and application sizes a Start request names for `image`.
    static func startSizes(_ image: DFUUpgradeImage) throws(LegacyDFUError) -> (softDevice: UInt32, bootloader: UInt32, application: UInt32) {
        guard !image.firmware.isEmpty else {
            throw LegacyDFUError(.invalidInput, "the firmware image is empty", hint: "check the package: each image needs its .bin")
        }
        guard let size = UInt32(exactly: image.firmware.count) else {
            throw LegacyDFUError(.invalidInput, "the image of \(image.firmware.count) bytes is too large for legacy DFU")
        }
        switch image.type {
        case .application, .externalApplication: return (0, 0, size)
        case .softDevice: return (size, 0, 0)
        case .bootloader: return (0, size, 0)
        case .softDeviceBootloader:
            guard let part = image.softDeviceSize, part > 0, part < image.firmware.count else {
                throw LegacyDFUError(
                    .invalidInput, "the SoftDevice and bootloader image does not say where the SoftDevice ends",
                    hint: "the package's manifest must give sd_size and bl_size")
            }
            return (UInt32(part), size - UInt32(part), 0)
        }
    }

    // MARK: Steps

    private func start(_ image: DFUUpgradeImage, sizes: (softDevice: UInt32, bootloader: UInt32, application: UInt32)) async throws {
        try await write(.start(mode: image.type.legacyModeBits))
        try await packet(LegacyDFURequest.startSizes(softDevice: sizes.softDevice, bootloader: sizes.bootloader, application: sizes.application))
        var answer = try await response(to: .start, refuse: false)
        if answer.status == .notSupported, sizes.softDevice == 0, sizes.bootloader == 0 {
            logger.debug("Start with a mode is not supported: trying the version 1 Start of nRF5 SDK ≤ 6")
            report.usedVersion1Start = true
            try await write(.startVersion1)
            try await packet(LegacyDFURequest.startVersion1Size(sizes.application))
            answer = try await response(to: .start, refuse: false)
        }
        switch answer.status {
        case .success:
            return
        case .invalidState:
            try? await transport.writeControlPoint(.reset)
            report.controlPointWrites += 1
            throw LegacyDFUError(
                .interruptedUpdate, "the bootloader was in the middle of an earlier, interrupted update: it has been reset to start over",
                hint: "run the same command again once the device is back in its bootloader (legacy DFU starts every transfer over)",
                request: .start)
        default:
            throw LegacyDFUError.refused(answer, detail: "(\(image.type), \(image.firmware.count) bytes)")
        }
    }

    private func sendInitPacket(_ initPacket: [UInt8]) async throws {
        try await write(.initializeBegin)
        for start in stride(from: 0, to: initPacket.count, by: Self.packetSize) {
            try Task.checkCancellation()
            try await packet(Array(initPacket[start..<min(start + Self.packetSize, initPacket.count)]))
        }
        try await write(.initializeComplete)
        try await response(to: .initialize)
        report.initPacketSent = true
    }

    private func sendFirmware(_ firmware: [UInt8], progress: ProgressCounter) async throws {
        var progress = progress
        try await write(.receiveFirmware)
        let interval = Int(options.receiptNotificationInterval)
        let count = (firmware.count + Self.packetSize - 1) / Self.packetSize
        for number in 1...count {
            try Task.checkCancellation()
            let start = (number - 1) * Self.packetSize
            let end = min(start + Self.packetSize, firmware.count)
            try await packet(Array(firmware[start..<end]))
            report.dataPackets += 1
            report.dataBytesWritten += end - start
            progress.wrote(end - start)
            // The last packet is answered by the Receive firmware response instead.
            guard number < count, number % interval == 0 else { continue }
            try await receipt(after: end)
            progress.confirmed(end)
        }
        do {
            try await response(to: .receiveFirmware)
        } catch let error as LegacyDFUError where error.kind == .noResponse {
            try await checkReceived(firmware.count, noAnswer: error)
        }
        progress.confirmed(firmware.count)
    }

    /// Waits for the receipt notification due after `sent` bytes and checks its count.
    private func receipt(after sent: Int) async throws {
        let notification: LegacyDFUNotification
        do {
            notification = try await transport.notification()
        } catch let error as LegacyDFUError where error.kind == .noResponse {
            try await checkReceived(sent, noAnswer: error)
        }
        switch notification {
        case .receipt(let received):
            report.receiptNotifications += 1
            guard Int(received) == sent else { throw lost(received: Int(received), sent: sent, how: "its receipt notification") }
        case .response(let answer):
            report.responses += 1
            // The bootloader gave up on the data (overflow, too many bytes, invalid state).
            throw answer.status == .success
                ? LegacyDFUError.malformed("\(answer) where a receipt notification after \(sent) bytes was due", request: .receiveFirmware)
                : LegacyDFUError.refused(answer, detail: "after \(sent) bytes")
        }
    }

    /// No notification came when one was due after `sent` bytes: asks the bootloader how many it
    /// received, and names lost packets when they differ; otherwise throws `noAnswer`.
    private func checkReceived(_ sent: Int, noAnswer: LegacyDFUError) async throws -> Never {
        try await write(.reportReceivedSize)
        let answer = try await response(to: .reportReceivedSize)
        if let received = answer.bytesReceived, Int(received) != sent {
            throw lost(received: Int(received), sent: sent, how: "its count, as no receipt notification came")
        }
        throw noAnswer
    }

    private func lost(received: Int, sent: Int, how: String) -> LegacyDFUError {
        LegacyDFUError(
            .packetsLost,
            "packets were lost: \(sent) bytes were sent (\((sent + Self.packetSize - 1) / Self.packetSize) packets), the bootloader received \(received) (\(how))",
            hint: "move the device closer or lower the packet receipt notification interval (--prn), then run again: legacy DFU starts the image over",
            request: .receiveFirmware)
    }

    // MARK: Messages

    private func write(_ request: LegacyDFURequest) async throws {
        try await transport.writeControlPoint(request)
        report.controlPointWrites += 1
    }

    private func packet(_ bytes: [UInt8]) async throws {
        try await transport.writePacket(bytes)
        report.packetWrites += 1
    }

    /// Waits for the response to `op`, skipping receipt notifications that come late; a refusal
    /// is thrown unless `refuse` is false.
    @discardableResult
    private func response(to op: LegacyDFUOpCode, refuse: Bool = true) async throws -> LegacyDFUResponse {
        while true {
            switch try await transport.notification() {
            case .receipt(let count):
                logger.debug("a late receipt notification (\(count) bytes) while waiting for the answer to \(op)")
            case .response(let answer):
                report.responses += 1
                guard answer.request == op else {
                    throw LegacyDFUError.malformed("an answer to \(answer.request) where one to \(op) was due", request: op)
                }
                if refuse, answer.status != .success { throw LegacyDFUError.refused(answer) }
                return answer
            }
        }
    }
}

/// What a finished legacy DFU transfer did.
public struct LegacyDFUTransferReport: Sendable, Hashable {
    /// The image's size.
    public var firmwareSize = 0
    /// The bootloader took only the "version 1" Start of nRF5 SDK ≤ 6.
    public var usedVersion1Start = false
    /// The init packet was sent and accepted.
    public var initPacketSent = false
    /// Writes to the Control Point.
    public var controlPointWrites = 0
    /// Writes to Packet: sizes, init packet and firmware.
    public var packetWrites = 0
    /// Firmware packets written.
    public var dataPackets = 0
    /// Firmware bytes written.
    public var dataBytesWritten = 0
    /// Responses received.
    public var responses = 0
    /// Receipt notifications received.
    public var receiptNotifications = 0

    /// An empty report.
    public init() {}
}
