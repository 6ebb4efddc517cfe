import Logging
import SMP

/// Sends an init packet and its firmware image to a Secure DFU bootloader (nRF5 SDK 12–17) over
/// any ``SecureDFUTransport``, resuming what an earlier, interrupted run left on the device.
///
/// The flow (docs/protocol/nordic-secure-dfu.md §22.3):
///
/// 1. Set the packet receipt notification (PRN) interval.
/// 2. Select the command object. If the device holds the whole init packet (offset = its size,
///    CRC equal), it is not sent again, only executed (executing a valid init packet twice is
///    harmless); if it holds a prefix with the right CRC, the rest is written; otherwise the
///    command object is created, written, checked (CRC) and executed.
/// 3. Select the data object: the largest object (4096 bytes on nRF52) and the offset and
///    cumulative CRC the device holds. A resume follows Android's `SecureDfuImpl`: if the CRC of
///    that many bytes of our image matches, a partly written object is completed without a new
///    Create, and a complete one (offset a multiple of the object size) is executed; if the CRC
///    differs, the current object is created again (Create discards its partial data) — at most
///    one object is sent twice.
/// 4. Each further object: Create, writes of ``SecureDFUTransport/maximumWriteSize`` bytes (after
///    every n-th the notification's offset and CRC are checked), Calculate Checksum, Execute. A
///    CRC that differs sends the object again, at most ``Options/maximumAttempts`` times in all.
///    The Execute of the last object makes the bootloader check the image and install it.
///
/// Cancelling the calling task (Ctrl-C) stops between writes, leaving a device that the next run
/// resumes. An engine runs one transfer at a time; a package's images are sent one after the
/// other (each with its own init packet).
public actor SecureDFUEngine {
    /// How a transfer is run.
    public struct Options: Sendable, Hashable {
        /// A receipt notification after every this many writes; 0 for none (the default over
        /// serial, as pc-nrfutil; flow control and the final CRC catch losses).
        public var receiptNotificationInterval: UInt16
        /// How often an object is sent before a CRC that still differs fails the transfer.
        public var maximumAttempts: Int

        /// Creates options.
        public init(receiptNotificationInterval: UInt16 = 0, maximumAttempts: Int = 3) {
            self.receiptNotificationInterval = receiptNotificationInterval
            self.maximumAttempts = max(1, maximumAttempts)
        }
    }

    /// The transport it talks through.
    public nonisolated let transport: any SecureDFUTransport
    /// How it runs transfers.
    public nonisolated let options: Options
    private let logger: Logger
    private let clock: any Clock<Duration>

    /// Writes since the last Create or Set PRN: the bootloader counts notifications from there.
    private var writesSinceCount = 0
    private var report = SecureDFUTransferReport()

    /// Creates an engine; nothing is sent until ``send(initPacket:firmware:progress:)``.
    ///
    /// - Parameter clock: what the transfer rate in progress reports is measured with.
    public init(
        transport: any SecureDFUTransport, options: Options = Options(), clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "nordic.dfu.secure")
    ) {
        self.transport = transport
        self.options = options
        self.clock = clock
        self.logger = logger
    }

    /// Sends `initPacket` (the package's `.dat`) and `firmware` (its `.bin`); returns once the
    /// bootloader has executed the last object, i.e. checked and accepted the image.
    ///
    /// - Parameter progress: called after every data write (`bytesSent`, `chunksSent` grow) and
    ///   whenever the device confirms what it holds, by a CRC or a receipt notification
    ///   (`acknowledged`: the image offset confirmed); `resumedFrom` is where this run started
    ///   when it resumed, `restarts` counts objects sent again.
    /// - Throws: ``SecureDFUError`` (the bootloader's refusal with its name and hint, a CRC that
    ///   kept differing, no answer, a lost link), or `CancellationError`.
    @discardableResult
    public func send(
        initPacket: [UInt8], firmware: [UInt8], progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> SecureDFUTransferReport {
        guard !initPacket.isEmpty, !firmware.isEmpty else {
            throw SecureDFUError(
                .invalidInput, initPacket.isEmpty ? "the init packet is empty" : "the firmware image is empty",
                hint: "check the package: each image needs its .dat and .bin")
        }
        guard transport.maximumWriteSize > 0 else {
            throw SecureDFUError(.invalidInput, "the transport carries no data bytes per write", hint: "the device's MTU is too small")
        }
        report = SecureDFUTransferReport()
        report.firmwareSize = firmware.count
        _ = try await perform(.setReceiptNotification(options.receiptNotificationInterval), object: nil, offset: nil)
        writesSinceCount = 0
        try await sendCommandObject(initPacket)
        try await sendDataObjects(firmware, progress: progress)
        return report
    }

    // MARK: The init packet

    private func sendCommandObject(_ initPacket: [UInt8]) async throws {
        let selection = try await perform(.select(.command), object: .command, offset: nil).selection()
        guard initPacket.count <= selection.maximumSize else {
            throw SecureDFUError(
                .invalidInput, "the init packet of \(initPacket.count) bytes is larger than the bootloader takes (\(selection.maximumSize))",
                hint: "the package may be meant for another bootloader", object: .command)
        }
        let held = Int(selection.checksum.offset)
        if held > 0, held <= initPacket.count, CRC32.checksum(initPacket[..<held]) == selection.checksum.crc {
            var crc = CRC32()
            crc.update(initPacket[..<held])
            if held == initPacket.count {
                logger.debug("the device holds this init packet already: executing it")
                report.initPacketSkipped = true
                _ = try await perform(.execute, object: .command, offset: UInt32(held))
                return
            }
            logger.debug("completing the init packet from offset \(held)")
            var none: ProgressCounter?
            if try await write(initPacket, held..<initPacket.count, crc: &crc, object: .command, progress: &none),
               try await checksumMatches(offset: initPacket.count, crc: crc, object: .command) {
                _ = try await perform(.execute, object: .command, offset: UInt32(initPacket.count))
                return
            }
        }
        var crc = CRC32()
        var none: ProgressCounter?
        try await sendObject(initPacket, 0..<initPacket.count, crc: &crc, object: .command, progress: &none)
    }

    // MARK: The image

    private func sendDataObjects(_ firmware: [UInt8], progress: (@Sendable (UploadProgress) -> Void)?) async throws {
        let selection = try await perform(.select(.data), object: .data, offset: nil).selection()
        let objectSize = Int(selection.maximumSize)
        guard objectSize > 0 else { throw SecureDFUError.malformed("a data object size of 0", request: .select) }
        report.objectSize = objectSize
        var progress = progress.map { ProgressCounter(report: $0, total: firmware.count, clock: clock) }
        var next = 0
        var crc = CRC32()
        let held = Int(selection.checksum.offset)
        if held > 0, held <= firmware.count {
            (next, crc) = try await resume(firmware, held: held, crc: selection.checksum.crc, objectSize: objectSize, progress: &progress)
        }
        while next < firmware.count {
            let end = min(next + objectSize, firmware.count)
            try await sendObject(firmware, next..<end, crc: &crc, object: .data, progress: &progress)
            next = end
        }
    }

    /// Continues from what the device holds (`held` bytes with CRC `crc`); returns where the next
    /// object starts and the CRC up to there.
    private func resume(
        _ firmware: [UInt8], held: Int, crc deviceCRC: UInt32, objectSize: Int, progress: inout ProgressCounter?
    ) async throws -> (Int, CRC32) {
        // The object the held bytes end in; when they end on an object boundary the object
        // before may not have been executed.
        var objectStart = held / objectSize * objectSize
        if objectStart == held { objectStart -= objectSize }
        let objectEnd = min(objectStart + objectSize, firmware.count)
        var crc = CRC32()
        crc.update(firmware[..<held])
        guard crc.value == deviceCRC else {
            logger.debug("the device holds \(held) bytes with another CRC: sending from offset \(objectStart) again")
            var restart = CRC32()
            restart.update(firmware[..<objectStart])
            return (objectStart, restart)
        }
        report.resumedFrom = held
        progress?.resumed(from: held)
        if held == objectEnd {
            logger.debug("the device holds \(held) bytes: executing the object it ends")
            do {
                _ = try await perform(.execute, object: .data, offset: UInt32(held))
            } catch let error as SecureDFUError where held < firmware.count && error.kind == .refused(.operationNotPermitted, extendedErrorCode: nil) {
                // Executed already: nRF5 SDK 15–17 refuse a second Execute (Android-DFU-Library #252).
            }
            return (held, crc)
        }
        logger.debug("the device holds \(held) bytes: completing the object from offset \(objectStart)")
        var running = crc
        if try await write(firmware, held..<objectEnd, crc: &running, object: .data, progress: &progress),
           try await checksumMatches(offset: objectEnd, crc: running, object: .data) {
            progress?.confirmed(objectEnd)
            _ = try await perform(.execute, object: .data, offset: UInt32(objectEnd))
            return (objectEnd, running)
        }
        var restart = CRC32()
        restart.update(firmware[..<objectStart])
        return (objectStart, restart)
    }

    // MARK: Objects

    /// Creates, writes, checks and executes one object (`range` of `bytes`), sending it again
    /// while its CRC differs; `crc` goes from the CRC before the object to the CRC after it.
    private func sendObject(
        _ bytes: [UInt8], _ range: Range<Int>, crc: inout CRC32, object: SecureDFUObjectType, progress: inout ProgressCounter?
    ) async throws {
        for attempt in 1...options.maximumAttempts {
            _ = try await perform(.create(object, size: UInt32(range.count)), object: object, offset: UInt32(range.lowerBound))
            writesSinceCount = 0
            if object == .data, transport.objectPreparationDelay > .zero {
                try await Task.sleep(for: transport.objectPreparationDelay)
            }
            var running = crc
            if try await write(bytes, range, crc: &running, object: object, progress: &progress),
               try await checksumMatches(offset: range.upperBound, crc: running, object: object) {
                progress?.confirmed(range.upperBound)
                _ = try await perform(.execute, object: object, offset: UInt32(range.upperBound))
                crc = running
                if object == .data { report.dataObjects += 1 }
                return
            }
            report.objectRetries += 1
            progress?.restarted()
            logger.debug("\(object) at \(range.lowerBound): CRC mismatch on attempt \(attempt) of \(options.maximumAttempts)")
        }
        throw SecureDFUError(
            .checksumMismatch,
            "the \(object) at offset \(range.lowerBound) (\(range.count) bytes) arrived damaged \(options.maximumAttempts) times: its CRC differs from ours",
            hint: "the line loses or damages bytes: use hardware flow control, a lower baud rate, or packet receipt notifications (e.g. --prn 1)",
            object: object, offset: UInt32(range.lowerBound))
    }

    /// Writes `range` of `bytes` in pieces, checking each receipt notification; false when one
    /// reports another offset or CRC than ours (the object must be sent again).
    private func write(
        _ bytes: [UInt8], _ range: Range<Int>, crc: inout CRC32, object: SecureDFUObjectType, progress: inout ProgressCounter?
    ) async throws -> Bool {
        let interval = Int(options.receiptNotificationInterval)
        for start in stride(from: range.lowerBound, to: range.upperBound, by: transport.maximumWriteSize) {
            try Task.checkCancellation()
            let piece = Array(bytes[start..<min(start + transport.maximumWriteSize, range.upperBound)])
            try await transport.writeData(piece)
            crc.update(piece)
            writesSinceCount += 1
            report.writes += 1
            if object == .data { report.dataBytesWritten += piece.count }
            progress?.wrote(piece.count)
            if interval > 0, writesSinceCount % interval == 0 {
                let notified = try await transport.receiptNotification()
                report.receiptNotifications += 1
                guard notified == SecureDFUChecksum(offset: UInt32(start + piece.count), crc: crc.value) else {
                    logger.debug("receipt notification \(notified) after \(start + piece.count) bytes of the \(object): not ours")
                    return false
                }
                progress?.confirmed(start + piece.count)
            }
        }
        return true
    }

    /// Whether the device's checksum is `offset` bytes with `crc`.
    private func checksumMatches(offset: Int, crc: CRC32, object: SecureDFUObjectType) async throws -> Bool {
        let reported = try await perform(.calculateChecksum, object: object, offset: UInt32(offset)).checksum()
        return reported == SecureDFUChecksum(offset: UInt32(offset), crc: crc.value)
    }

    /// Sends `request` and returns its successful answer, or throws the refusal.
    private func perform(_ request: SecureDFURequest, object: SecureDFUObjectType?, offset: UInt32?) async throws -> SecureDFUResponse {
        let response = try await transport.request(request)
        report.controlRequests += 1
        guard response.request == request.opCode else {
            throw SecureDFUError.malformed("an answer to \(response.request) where one to \(request.opCode) was due", request: request.opCode)
        }
        if let failure = response.failure(object: object, offset: offset) { throw failure }
        return response
    }
}

/// What a finished Secure DFU transfer did.
public struct SecureDFUTransferReport: Sendable, Hashable {
    /// The image's size.
    public var firmwareSize = 0
    /// The data object size the bootloader chose.
    public var objectSize = 0
    /// The device held this init packet already; it was executed, not sent.
    public var initPacketSkipped = false
    /// The image offset this run resumed from, if it did.
    public var resumedFrom: Int?
    /// Data objects created and executed by this run.
    public var dataObjects = 0
    /// Objects sent again after a CRC mismatch.
    public var objectRetries = 0
    /// Data writes (init packet writes included).
    public var writes = 0
    /// Image bytes written (resent ones included).
    public var dataBytesWritten = 0
    /// Requests other than writes.
    public var controlRequests = 0
    /// Receipt notifications received.
    public var receiptNotifications = 0

    /// An empty report.
    public init() {}
}
