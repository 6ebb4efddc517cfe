import Logging
import SMP
import SMPSerial
import Synchronization

/// Secure DFU over a serial line (nRF5 SDK `nrf_dfu_serial_uart.c`, `nrf_dfu_serial_usb.c`;
/// pc-nrfutil's `dfu_transport_serial.py`): every request and answer is one SLIP frame; data
/// goes in Write requests `[08, data…]`; a write is answered only by a receipt notification, which
/// looks like a Calculate Checksum answer.
///
/// Opening pings the bootloader (`[09, id]`, answered `[60 09 01 id]`; skippable for the nRF52840
/// USB CDC bootloader, which needs none) and asks for its MTU, the largest SLIP frame it takes
/// (131 on the UART bootloader: 64 data bytes per write, which is `(MTU − 1) / 2 − 1`, leaving
/// room to escape every byte and the op code).
///
/// ```swift
/// let transport = try await SecureDFUSerialTransport.open(path: "/dev/ttyACM0")
/// try await SecureDFUEngine(transport: transport).send(initPacket: dat, firmware: bin)
/// await transport.close()
/// ```
public final class SecureDFUSerialTransport: SecureDFUTransport {
    /// How the port is opened and how long the bootloader may take.
    public struct Options: Sendable, Hashable {
        /// Baud rate and flow control (the framing fields do not apply). The nRF5 SDK's UART
        /// bootloader runs at 115200 baud, with RTS/CTS by default (`NRF_DFU_SERIAL_UART_USES_HWFC`).
        public var serial: SerialPortOptions
        /// Ping first: the UART bootloader needs it, the USB CDC one does not.
        public var ping: Bool
        /// How long pinging may go unanswered before the device is taken for absent.
        public var pingTimeout: Duration
        /// How long each request may wait for its answer (the last Execute checks the whole image).
        public var responseTimeout: Duration

        /// Creates options.
        public init(
            serial: SerialPortOptions = SerialPortOptions(), ping: Bool = true, pingTimeout: Duration = .seconds(5),
            responseTimeout: Duration = .seconds(10)
        ) {
            self.serial = serial
            self.ping = ping
            self.pingTimeout = pingTimeout
            self.responseTimeout = responseTimeout
        }
    }

    /// The largest answer accepted (a Hardware Version answer is 23 bytes).
    static let maximumAnswerSize = 64
    /// How long one ping waits before the next is sent.
    static let pingInterval = Duration.milliseconds(500)

    /// The port's path.
    public let path: String
    /// `serial PATH`.
    public var linkDescription: String { "serial \(path)" }
    /// The bootloader's MTU: its largest SLIP frame, encoded.
    public let mtu: Int
    /// The settings it was opened with.
    public let options: Options

    /// `(MTU − 1) / 2 − 1` data bytes: with every byte escaped, the op code and the END still fit.
    public var maximumWriteSize: Int { Self.maximumWriteSize(mtu: mtu) }
    /// None: a serial bootloader erases the page while it receives the data.
    public var objectPreparationDelay: Duration { .zero }

    private let link: SerialByteLink
    private let inbox: FrameInbox
    private let reader: Task<Void, Never>
    private let logger: Logger

    private init(path: String, mtu: Int, options: Options, link: SerialByteLink, inbox: FrameInbox, reader: Task<Void, Never>, logger: Logger) {
        self.path = path
        self.mtu = mtu
        self.options = options
        self.link = link
        self.inbox = inbox
        self.reader = reader
        self.logger = logger
    }

    /// The data bytes one write carries for a bootloader MTU.
    public static func maximumWriteSize(mtu: Int) -> Int { max(0, (mtu - 1) / 2 - 1) }

    /// Opens the port, pings the bootloader (unless ``Options/ping`` is off) and reads its MTU.
    ///
    /// - Throws: `SMPTransportError` when the port cannot be opened; ``SecureDFUError`` when the
    ///   bootloader does not answer the ping (`.noResponse`) or its MTU is unusable.
    public static func open(
        path: String, options: Options = Options(), logger: Logger = Logger(label: "nordic.dfu.serial")
    ) async throws -> SecureDFUSerialTransport {
        let link = try await SerialByteLink.open(path: path, options: options.serial, logger: logger)
        let inbox = FrameInbox()
        let reader = inbox.read(link, maximumFrameSize: maximumAnswerSize) { error in
            error.map { SecureDFUError(.disconnected, $0.message, hint: $0.hint) } ?? SecureDFUError(.disconnected, "serial:\(path): the connection was closed")
        }
        do {
            if options.ping { try await ping(link: link, inbox: inbox, path: path, options: options) }
            try await send(SecureDFURequest.mtu.bytes, on: link, path: path)
            let answer = try await inbox.answer(to: .mtu, timeout: options.responseTimeout, endpoint: "serial:\(path)", logger: logger)
            if let failure = answer.failure(object: nil, offset: nil) { throw failure }
            let mtu = try answer.mtu()
            guard maximumWriteSize(mtu: mtu) > 0 else {
                throw SecureDFUError.malformed("an MTU of \(mtu) bytes leaves no room for data", request: .mtu)
            }
            logger.debug("serial:\(path): Secure DFU bootloader, MTU \(mtu) (\(maximumWriteSize(mtu: mtu)) data bytes a write)")
            return SecureDFUSerialTransport(path: path, mtu: mtu, options: options, link: link, inbox: inbox, reader: reader, logger: logger)
        } catch {
            reader.cancel()
            await link.close()
            throw error
        }
    }

    /// Pings until an answer comes or ``Options/pingTimeout`` passes. Any answer to the ping
    /// counts, an error result too: the bootloader is there (as pc-nrfutil judges).
    private static func ping(link: SerialByteLink, inbox: FrameInbox, path: String, options: Options) async throws {
        let attempts = max(1, Int((options.pingTimeout / pingInterval).rounded(.up)))
        for attempt in 1...attempts {
            let id = UInt8(truncatingIfNeeded: attempt)
            try await send(SecureDFURequest.ping(id).bytes, on: link, path: path)
            let deadline = ContinuousClock.now + pingInterval
            while ContinuousClock.now < deadline {
                let frame: [UInt8]
                do {
                    frame = try await inbox.next(timeout: deadline - .now)
                } catch is FrameInbox.Timeout {
                    break
                }
                guard case .success(let answer) = SecureDFUResponse.parse(frame), answer.request == .ping else { continue }
                if answer.result != .success || (try? answer.pingID()) == id { return }
            }
        }
        throw SecureDFUError(
            .noResponse, "serial:\(path): no answer to ping within \(options.pingTimeout)",
            hint: "is the device in its Secure DFU bootloader (nRF5 SDK 12–17)? Check the baud rate (the bootloader's UART runs at 115200) "
                + "and flow control; a USB CDC bootloader (1915:521F) needs no ping")
    }

    private static func send(_ frame: [UInt8], on link: SerialByteLink, path: String) async throws {
        do {
            try await link.send(SLIP.encode(frame))
        } catch {
            throw SecureDFUError(.disconnected, error.message, hint: error.hint)
        }
    }

    /// Sends `request` in one SLIP frame and waits up to ``Options/responseTimeout`` for its
    /// answer; answers nobody waited for are dropped first.
    public func request(_ request: SecureDFURequest) async throws -> SecureDFUResponse {
        let stale = inbox.discardKept()
        if stale > 0 { logger.debug("serial:\(path): dropped \(stale) answers nobody waited for") }
        try await Self.send(request.bytes, on: link, path: path)
        return try await inbox.answer(to: request.opCode, timeout: options.responseTimeout, endpoint: "serial:\(path)", logger: logger)
    }

    /// Sends `[08, bytes…]` in one SLIP frame; at most ``maximumWriteSize`` bytes.
    public func writeData(_ bytes: [UInt8]) async throws {
        try await Self.send(SecureDFURequest.write(bytes).bytes, on: link, path: path)
    }

    /// Waits up to ``Options/responseTimeout`` for the `[60 03 01, offset, CRC]` frame that
    /// answers the n-th write.
    public func receiptNotification() async throws -> SecureDFUChecksum {
        try await inbox.receiptNotification(timeout: options.responseTimeout, endpoint: "serial:\(path)", logger: logger)
    }

    /// Closes the port.
    public func close() async {
        reader.cancel()
        await link.close()
    }
}
