import NordicDFU
import SMP

/// A Secure DFU bootloader (nRF5 SDK 15–17, `nrf_dfu_req_handler.c`, `nrf_dfu_validation.c`,
/// `nrf_dfu_serial.c`) as a pure state machine: each request frame in, at most one answer out.
/// ``SecureDFUPTYServer`` puts it on a pseudo-terminal with SLIP framing.
///
/// Like the SDK's bootloader it keeps one init packet (a command object of at most
/// ``Configuration/commandObjectMaximumSize`` bytes) and the image received so far with its
/// cumulative CRC-32; Create of a data object discards what the object being replaced had
/// received (back to the last executed object), Execute of a data object needs it written in
/// full, and Execute of the last one checks the image and installs it. What the SDK decodes from
/// the init packet (protobuf, signature, versions) is a hook here: ``Configuration/initPacketCheck``
/// says whether the init packet is accepted and how large its image is, or which error refuses
/// it; ``Configuration/firmwareCheck`` judges the complete image.
///
/// As on serial, a write is answered only by a receipt notification (a Calculate Checksum
/// answer) after every n-th write since the last Set PRN or Create; a refused write goes
/// unanswered and shows in the next CRC.
public struct SecureDFUTarget: Sendable {
    /// What the init packet check decided.
    public enum InitPacketVerdict: Sendable, Hashable {
        /// Accepted, for an image of this many bytes.
        case accept(firmwareSize: Int)
        /// Refused with this result (and extended error).
        case refuse(SecureDFURefusal)
    }

    /// How the bootloader is built.
    public struct Configuration: Sendable {
        /// The largest data object: a flash page on nRF52 (4096), four on nRF51.
        public var dataObjectMaximumSize: Int
        /// The largest init packet (`INIT_COMMAND_MAX_SIZE`: 256 on SDK 15, 512 on 16–17).
        public var commandObjectMaximumSize: Int
        /// The flash page: data objects other than the last must be multiples of it.
        public var pageSize: Int
        /// The serial MTU it reports: its largest SLIP frame (131 on the UART bootloader).
        public var mtu: Int
        /// Judges an init packet when its command object is executed, knowing what is installed
        /// (for version checks).
        public var initPacketCheck: @Sendable (_ initPacket: [UInt8], _ installed: [InstalledImage]) -> InitPacketVerdict
        /// Judges the complete image at the last Execute; nil accepts it.
        public var firmwareCheck: @Sendable (_ initPacket: [UInt8], _ firmware: [UInt8]) -> SecureDFURefusal?
        /// Damage done to the data received.
        public var faults: SecureDFUTargetFaults

        /// Creates a configuration.
        ///
        /// - Parameter initPacketCheck: decides on each init packet and gives its image's size
        ///   (the init packet is opaque here: a decoder of `dfu-cc.proto` packets plugs in).
        public init(
            dataObjectMaximumSize: Int = 4096, commandObjectMaximumSize: Int = 256, pageSize: Int = 4096, mtu: Int = 131,
            faults: SecureDFUTargetFaults = SecureDFUTargetFaults(),
            firmwareCheck: @escaping @Sendable (_ initPacket: [UInt8], _ firmware: [UInt8]) -> SecureDFURefusal? = { _, _ in nil },
            initPacketCheck: @escaping @Sendable (_ initPacket: [UInt8], _ installed: [InstalledImage]) -> InitPacketVerdict
        ) {
            self.dataObjectMaximumSize = dataObjectMaximumSize
            self.commandObjectMaximumSize = commandObjectMaximumSize
            self.pageSize = pageSize
            self.mtu = mtu
            self.faults = faults
            self.firmwareCheck = firmwareCheck
            self.initPacketCheck = initPacketCheck
        }
    }

    /// What one request frame leads to.
    public struct Reply: Sendable, Hashable {
        /// The answer to send, if any.
        public var answer: [UInt8]?
        /// Drop the link after the answer (fault injection).
        public var disconnect = false
    }

    /// An image the bootloader accepted and installed.
    public struct InstalledImage: Sendable, Hashable {
        /// Its init packet.
        public var initPacket: [UInt8]
        /// The image.
        public var firmware: [UInt8]

        /// Creates a record.
        public init(initPacket: [UInt8], firmware: [UInt8]) {
            self.initPacket = initPacket
            self.firmware = firmware
        }
    }

    /// How it is built.
    public let configuration: Configuration
    /// What it received and answered.
    public private(set) var statistics = SecureDFUTargetStatistics()
    /// The images installed, oldest first; the last one runs.
    public private(set) var installed: [InstalledImage] = []

    private var currentObject = SecureDFUObjectType.command
    private var commandSize = 0
    private var command: [UInt8] = []
    private var commandCRC = CRC32()
    /// The image size of an accepted init packet; nil while none is.
    private var firmwareSize: Int?
    private var firmware: [UInt8] = []
    private var firmwareCRC = CRC32()
    private var executedOffset = 0
    private var executedCRC = CRC32()
    private var dataObjectSize = 0
    private var notificationInterval = 0
    private var writesUntilNotification = 0
    private var generator: SeededGenerator
    private var disconnectDone = false

    /// A bootloader with nothing received yet.
    public init(configuration: Configuration) {
        self.configuration = configuration
        generator = SeededGenerator(seed: configuration.faults.seed)
    }

    /// The image received so far (past the last Create, until it is replaced).
    public var receivedFirmware: [UInt8] { firmware }

    /// Handles one request frame.
    public mutating func handle(_ frame: [UInt8]) -> Reply {
        let request: SecureDFURequest
        switch SecureDFURequest.parse(frame) {
        case .success(let parsed):
            request = parsed
        case .failure(let failure):
            statistics.malformedRequests += 1
            guard let first = frame.first, let op = SecureDFUOpCode(rawValue: first) else {
                return Reply(answer: frame.first.map { [SecureDFUOpCode.response.rawValue, $0, failure.result.rawValue] })
            }
            return Reply(answer: SecureDFUResponse(request: op, result: failure.result).bytes)
        }
        statistics.requests[request.opCode, default: 0] += 1
        switch request {
        case .write(let data):
            return write(data)
        case .ping(let id):
            return answer(.ping, payload: [id])
        case .mtu:
            return answer(.mtu, payload: [UInt8(truncatingIfNeeded: configuration.mtu), UInt8(truncatingIfNeeded: configuration.mtu >> 8)])
        case .protocolVersion:
            return answer(.protocolVersion, payload: [1])
        case .hardwareVersion, .firmwareVersion:
            // Built without NRF_DFU_PROTOCOL_FW_VERSION_MSG and friends, as the SDK examples can be.
            return refuse(request.opCode, SecureDFURefusal(.opCodeNotSupported))
        case .setReceiptNotification(let interval):
            notificationInterval = Int(interval)
            writesUntilNotification = notificationInterval
            return answer(.setReceiptNotification)
        case .abort:
            firmwareSize = nil
            clearData()
            return answer(.abort)
        case .select(let type):
            currentObject = type
            switch type {
            case .command:
                return answer(.select, payload: SecureDFUSelection(
                    maximumSize: UInt32(configuration.commandObjectMaximumSize),
                    checksum: SecureDFUChecksum(offset: UInt32(command.count), crc: commandCRC.value)).payload)
            case .data:
                return answer(.select, payload: SecureDFUSelection(
                    maximumSize: UInt32(configuration.dataObjectMaximumSize),
                    checksum: SecureDFUChecksum(offset: UInt32(firmware.count), crc: firmwareCRC.value)).payload)
            }
        case .create(let type, let size):
            currentObject = type
            writesUntilNotification = notificationInterval
            return type == .command ? createCommand(size: Int(size)) : createData(size: Int(size))
        case .calculateChecksum:
            if currentObject == .data { countForObject(request: true) }
            return answer(.calculateChecksum, payload: currentChecksum.payload)
        case .execute:
            if currentObject == .data { countForObject(request: true) }
            return currentObject == .command ? executeCommand() : executeData()
        }
    }

    private var currentChecksum: SecureDFUChecksum {
        currentObject == .command
            ? SecureDFUChecksum(offset: UInt32(command.count), crc: commandCRC.value)
            : SecureDFUChecksum(offset: UInt32(firmware.count), crc: firmwareCRC.value)
    }

    // MARK: The init packet

    private mutating func createCommand(size: Int) -> Reply {
        guard size > 0 else { return refuse(.create, SecureDFURefusal(.invalidParameter)) }
        guard size <= configuration.commandObjectMaximumSize else { return refuse(.create, SecureDFURefusal(.insufficientResources)) }
        // A new init packet resets all progress.
        firmwareSize = nil
        clearData()
        commandSize = size
        command = []
        commandCRC = CRC32()
        return answer(.create)
    }

    private mutating func executeCommand() -> Reply {
        guard commandSize > 0, command.count == commandSize else { return refuse(.execute, SecureDFURefusal(.operationNotPermitted)) }
        if firmwareSize != nil { return answer(.execute) }
        switch configuration.initPacketCheck(command, installed) {
        case .accept(let size):
            firmwareSize = size
            return answer(.execute)
        case .refuse(let refusal):
            return refuse(.execute, refusal)
        }
    }

    // MARK: The image

    private mutating func createData(size: Int) -> Reply {
        guard let firmwareSize else { return refuse(.create, SecureDFURefusal(.operationNotPermitted)) }
        guard size > 0 else { return refuse(.create, SecureDFURefusal(.invalidParameter)) }
        guard size % configuration.pageSize == 0 || executedOffset + size == firmwareSize else {
            return refuse(.create, SecureDFURefusal(.invalidParameter))
        }
        guard size <= configuration.dataObjectMaximumSize else { return refuse(.create, SecureDFURefusal(.insufficientResources)) }
        guard executedOffset + size <= firmwareSize else { return refuse(.create, SecureDFURefusal(.operationNotPermitted)) }
        dataObjectSize = size
        firmware.removeSubrange(executedOffset...)
        firmwareCRC = executedCRC
        statistics.dataObjects.append(SecureDFUTargetStatistics.DataObject(offset: executedOffset, size: size))
        return answer(.create)
    }

    private mutating func executeData() -> Reply {
        guard firmwareSize != nil, firmware.count - executedOffset == dataObjectSize else {
            return refuse(.execute, SecureDFURefusal(.operationNotPermitted))
        }
        executedOffset = firmware.count
        executedCRC = firmwareCRC
        dataObjectSize = 0
        if !statistics.dataObjects.isEmpty { statistics.dataObjects[statistics.dataObjects.count - 1].executed = true }
        guard firmware.count == firmwareSize else { return answer(.execute) }
        let refusal = configuration.firmwareCheck(command, firmware)
        if refusal == nil {
            installed.append(InstalledImage(initPacket: command, firmware: firmware))
            statistics.installs += 1
        }
        // Checked (installed or not): the bootloader resets and waits for the next update, its
        // init packet no longer valid; the command object stays readable.
        firmwareSize = nil
        clearData()
        currentObject = .command
        return refusal.map { refuse(.execute, $0) } ?? answer(.execute)
    }

    private mutating func clearData() {
        firmware = []
        firmwareCRC = CRC32()
        executedOffset = 0
        executedCRC = CRC32()
        dataObjectSize = 0
    }

    // MARK: Writes

    private mutating func write(_ data: [UInt8]) -> Reply {
        var data = data
        var disconnect = false
        if currentObject == .data {
            let number = statistics.dataWrites + statistics.lostWrites + 1
            let faults = configuration.faults
            let lost = generator.chance(faults.lostWriteFraction) || faults.lostWrites.contains(number)
            let corrupted = generator.chance(faults.corruptedWriteFraction) || faults.corruptedWrites.contains(number)
            let position = Int(generator.next() % UInt64(data.count))
            if lost {
                statistics.lostWrites += 1
                return Reply()
            }
            if corrupted {
                data[position] ^= 0xFF
                statistics.corruptedWrites += 1
            }
            statistics.dataWrites += 1
            statistics.dataBytesReceived += data.count
            countForObject(request: false)
            if let limit = faults.disconnectAfterDataBytes, !disconnectDone, statistics.dataBytesReceived >= limit {
                disconnectDone = true
                disconnect = true
                statistics.disconnects += 1
            }
        } else {
            statistics.commandBytesReceived += data.count
        }
        let accepted = currentObject == .command ? appendCommand(data) : appendData(data)
        var reply = Reply(disconnect: disconnect)
        guard notificationInterval > 0 else { return reply }
        writesUntilNotification -= 1
        guard writesUntilNotification == 0 else { return reply }
        writesUntilNotification = notificationInterval
        // The SDK answers the n-th write with its own result: a refused write gets a refusal.
        guard accepted else {
            reply.answer = SecureDFUResponse(request: .calculateChecksum, result: .invalidParameter).bytes
            return reply
        }
        statistics.notifications += 1
        if currentObject == .data, !statistics.dataObjects.isEmpty {
            statistics.dataObjects[statistics.dataObjects.count - 1].notifications += 1
        }
        reply.answer = SecureDFUResponse(request: .calculateChecksum, payload: currentChecksum.payload).bytes
        return reply
    }

    private mutating func appendCommand(_ data: [UInt8]) -> Bool {
        guard commandSize > 0, command.count + data.count <= commandSize else { return false }
        command += data
        commandCRC.update(data)
        return true
    }

    private mutating func appendData(_ data: [UInt8]) -> Bool {
        guard firmwareSize != nil, firmware.count - executedOffset + data.count <= dataObjectSize else { return false }
        firmware += data
        firmwareCRC.update(data)
        return true
    }

    /// Counts a write or a control request against the data object in progress.
    private mutating func countForObject(request: Bool) {
        guard !statistics.dataObjects.isEmpty else { return }
        let last = statistics.dataObjects.count - 1
        if request { statistics.dataObjects[last].controlRequests += 1 } else { statistics.dataObjects[last].writes += 1 }
    }

    // MARK: Answers

    private func answer(_ op: SecureDFUOpCode, payload: [UInt8] = []) -> Reply {
        Reply(answer: SecureDFUResponse(request: op, payload: payload).bytes)
    }

    private func refuse(_ op: SecureDFUOpCode, _ refusal: SecureDFURefusal) -> Reply {
        Reply(answer: SecureDFUResponse(request: op, result: refusal.result, extendedErrorCode: refusal.extendedError?.rawValue).bytes)
    }
}

/// How a bootloader refuses a request: a result code, with an extended error for
/// ``SecureDFUResultCode/extendedError``.
public struct SecureDFURefusal: Sendable, Hashable {
    /// The result code.
    public var result: SecureDFUResultCode
    /// The extended error, with result ``SecureDFUResultCode/extendedError``.
    public var extendedError: SecureDFUExtendedError?

    /// A refusal with a plain result code.
    public init(_ result: SecureDFUResultCode) {
        self.result = result
        extendedError = nil
    }

    /// A refusal with an extended error.
    public static func extended(_ error: SecureDFUExtendedError) -> SecureDFURefusal {
        var refusal = SecureDFURefusal(.extendedError)
        refusal.extendedError = error
        return refusal
    }
}
