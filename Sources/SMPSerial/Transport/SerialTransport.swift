import Logging
import DescriptorIO
import SMP
import Synchronization

/// SMP over a serial line: a tty, or a TCP stream to a serial server (`tcp://HOST:PORT`: ser2net,
/// QEMU, socat), with one of three framings (`SerialFraming`). With the console framing
/// ("SMP over console", docs/protocol/serial.md §15.1) each message goes out as base64 lines with markers, a length and a
/// CRC; received lines are reassembled into messages, and console output between them (logs,
/// prompts) is skipped. With the raw framing messages go out bare.
///
/// Console lines are paced (`LinePacing`): a Zephyr device receives them into a few line
/// buffers (two by default) and drops what arrives while they are full, so at most `burst` lines
/// go out in any span of `gap`. The pacing starts from the options (or Zephyr's default) and can
/// be learned on the link (`SMPClient.tuneLinePacing()`); `pacingLearned` is told when it is.
///
/// Raw messages are paced in pieces of ``rawPieceSize`` bytes where nothing else paces them: a
/// TCP serial server (QEMU, ser2net) delivers bytes as fast as the network, with no line rate,
/// and a device whose UART hands over each byte in an interrupt of its own keeps only a few of
/// them until its loop takes them (MCUboot's raw recovery: one of `BOOT_LINE_BUFS`, 8, fragment
/// buffers per interrupt; the rest is dropped, and so is the request). Over `tcp://` pieces go
/// out at the line rate of the baud rate; after a loss, on any link, at half the speed each time.
///
/// The port is read and written by a `SerialIO` (over a `DescriptorChannel`: a thread of its
/// own blocked in poll(), because a tty's hang-up semantics trip SwiftNIO's pipe channel); writes wait for the port to take them
/// (back-pressure from the UART); EOF, EIO or a hang-up is how a device going away shows.
///
/// When the device disappears (unplugged, reset, re-enumerated), ``inbound`` fails with a clear
/// error, so pending requests fail at once; or, when a `relocate` function is given, the transport
/// waits for the device to come back, reopens it and continues on the same stream, so an
/// `SMPClient` survives a device reset (requests lost in the gap are retried by the client).
///
/// ```swift
/// let transport = try await SerialTransport.open(path: "/dev/ttyACM0")
/// let client = SMPClient(transport: transport)
/// ```
public final class SerialTransport: SMPLinePacedTransport, SMPLinkDiagnosing {
    /// How long a device that disappeared may take to come back (when relocation is on).
    public static let defaultRelocationTimeout = Duration.seconds(30)

    public let endpoint: String
    public let maximumMessageSize: Int
    public let inbound: AsyncThrowingStream<[UInt8], any Error>
    /// Zephyr's defaults: `MCUMGR_TRANSPORT_NETBUF_SIZE` 384, `…_COUNT` 4.
    public var defaultParameters: MCUmgrParameters { MCUmgrParameters(bufferSize: 384, bufferCount: 4) }

    /// With console lines, the 2-byte length and 2-byte CRC share the device's buffer with the
    /// message (docs/protocol/transports.md §15.7); a raw message has the buffer to itself.
    public var deviceBufferOverhead: Int { options.framing == .raw ? 0 : 4 }

    /// A serial device handles requests one at a time, in order, and the line keeps that order.
    public var answersInOrder: Bool { true }

    /// Raw framing has no markers: a device drops the start of a message whose rest is missing only
    /// after 3 s without input (MCUboot's `BOOT_SERIAL_RAW_PROTOCOL_INPUT_TIMEOUT_MS`, Zephyr's raw
    /// UART input timeout), so a resend waits that long plus a margin.
    public var partialMessageExpiry: Duration? { options.framing == .raw ? .milliseconds(3500) : nil }

    /// The settings the port was opened with.
    public let options: SerialPortOptions

    let state: Mutex<SerialLinkState>
    let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    let relocate: (@Sendable () async throws -> String)?
    let relocationTimeout: Duration
    let logger: Logger
    private let encoder: SerialFrameEncoder
    private let pacingLearned: (@Sendable (LinePacing) -> Void)?

    /// How many bytes of a raw message go out back to back when raw messages are paced: fewer than
    /// MCUboot's 8 receive fragment buffers, which a byte per interrupt fills one each.
    public static let rawPieceSize = 4

    private init(
        path: String, options: SerialPortOptions, relocate: (@Sendable () async throws -> String)?,
        relocationTimeout: Duration, pacingLearned: (@Sendable (LinePacing) -> Void)?, logger: Logger
    ) {
        endpoint = "serial:\(path)"
        self.options = options
        // The framing carries any message size; the device's buf_size (from MCUmgr parameters,
        // else the assumed 384) is the real limit, unless `?mtu=` sets one.
        maximumMessageSize = min(
            options.maximumMessageSize ?? SerialFrameEncoder.maximumEncodableMessageSize, SerialFrameEncoder.maximumEncodableMessageSize)
        encoder = SerialFrameEncoder(lineLength: options.lineLength, style: .client)
        (inbound, continuation) = AsyncThrowingStream.makeStream()
        state = Mutex(SerialLinkState(
            pacing: options.framing.usesConsoleLines
                ? options.pacing ?? .zephyrDefault
                : options.pacing ?? Self.rawPacing(path: path, baudRate: options.baudRate),
            pacingIsSettled: options.pacing != nil || !options.framing.usesConsoleLines,
            path: path, decoder: options.framing.makeDecoder()))
        self.pacingLearned = pacingLearned
        self.relocate = relocate
        self.relocationTimeout = relocationTimeout
        self.logger = logger
    }

    /// Opens a serial port for SMP.
    ///
    /// - Parameters:
    ///   - path: the device, e.g. `/dev/ttyACM0` or a `/dev/serial/by-id/…` link, or a serial
    ///     server as `tcp://HOST:PORT` (see ``SerialEndpoint``).
    ///   - options: baud rate, flow control, line length, message size, framing, pacing.
    ///   - relocate: when given, it is called after the device disappeared (reset,
    ///     re-enumeration): it waits (bounded) for the same device to come back and returns its
    ///     current path; the transport then reopens it and continues on the same ``inbound``
    ///     stream. Sends during the gap wait for the reopening. If it throws, ``inbound`` fails
    ///     with its error.
    ///   - relocationTimeout: the longest the device may stay away, reopening included.
    ///   - pacingLearned: called when the line pacing was learned on this link, to remember it.
    ///   - logger: where the transport's events go.
    /// - Throws: `SMPTransportError` saying what is wrong with the port (see ``SerialPort``).
    public static func open(
        path: String, options: SerialPortOptions = SerialPortOptions(),
        relocate: (@Sendable () async throws -> String)? = nil, relocationTimeout: Duration = defaultRelocationTimeout,
        pacingLearned: (@Sendable (LinePacing) -> Void)? = nil, logger: Logger = Logger(label: "smp.serial")
    ) async throws(SMPTransportError) -> SerialTransport {
        guard options.baudRate > 0 else {
            throw SMPTransportError(.unsupportedSetting, "serial:\(path): a baud rate of \(options.baudRate) is not possible")
        }
        let transport = SerialTransport(
            path: path, options: options, relocate: relocate, relocationTimeout: relocationTimeout,
            pacingLearned: pacingLearned, logger: logger)
        let connection = try await transport.connect(path: path)
        transport.state.withLock { $0.phase = .open(connection) }
        return transport
    }

    /// The path of the port now: the one opened, or where the device came back.
    public var currentPath: String { state.withLock { $0.path } }

    /// What the link has carried: framing counts, echoes, bytes each way.
    public var statistics: SerialLinkStatistics { state.withLock { $0.snapshot } }

    /// A sentence naming the likely reason a device does not answer, judged from what was
    /// received: console echo (our requests come back), a wrong baud rate (bytes but no valid
    /// packet), a console without SMP, nothing at all, or a noisy line. Nil when nothing stands out.
    ///
    /// Another process that has the port open (a terminal program, `cat`, another smpctl) may be
    /// reading the device's answers: it is named first, with its process ID.
    public func diagnosis() -> String? {
        let (statistics, path) = state.withLock { ($0.snapshot, $0.path) }
        let explained = SerialLinkDiagnosis.explain(statistics, path: path, baudRate: options.baudRate, framing: options.framing)
        let others = PortHolders.others(holding: path)
        guard !others.isEmpty else { return explained }
        let sharing = "\(others.map(\.description).joined(separator: ", ")) also has \(path) open and may be reading the device's "
            + "answers before this program sees them: close it (a terminal such as minicom, screen or picocom, a `cat`, or another copy of this program) "
            + "and try again"
        return explained.map { sharing + "; otherwise: " + $0 } ?? sharing
    }

    // MARK: Pacing

    public var linePacing: LinePacing { state.withLock { $0.pacing } }

    public var linePacingIsSettled: Bool { state.withLock { $0.pacingIsSettled } }

    public func lineCount(forMessageOfSize size: Int) -> Int {
        if options.framing.usesConsoleLines { return encoder.quantaPerLine(messageCount: size).count }
        return linePacing.isUnpaced ? 1 : (size + Self.rawPieceSize - 1) / Self.rawPieceSize
    }

    /// How raw pieces go out at first: at the line rate of `baudRate` (ten bits a byte) to a TCP
    /// serial server, which has no line rate of its own; unpaced to a tty, whose UART paces them.
    static func rawPacing(path: String, baudRate: Int) -> LinePacing {
        guard SerialEndpoint(path: path)?.isServer == true else { return .unpaced }
        return LinePacing(burst: 1, gap: rawPieceTime(baudRate: baudRate))
    }

    /// How long one raw piece takes on a line of `baudRate`.
    static func rawPieceTime(baudRate: Int) -> Duration {
        .microseconds(max(1, rawPieceSize * 10 * 1_000_000 / max(1, baudRate)))
    }

    /// The slowest raw pacing a loss leads to: a piece per eight line-rate piece times (about
    /// 1.4 KB/s at 115200 baud).
    private var slowestRawPacing: LinePacing {
        LinePacing(burst: 1, gap: Self.rawPieceTime(baudRate: options.baudRate) * 8)
    }

    public func slowDownAfterLoss() -> String? {
        guard !options.framing.usesConsoleLines else { return slowConsoleLinesAfterLoss() }
        let current = linePacing
        let slower: LinePacing
        if current.isUnpaced {
            slower = LinePacing(burst: 1, gap: Self.rawPieceTime(baudRate: options.baudRate))
        } else {
            // A piece per interval; a pacing already at or beyond the floor (given with `?burst=`
            // and `?gap=`) is kept, never made faster.
            let interval = current.gap / current.burst
            guard interval < slowestRawPacing.gap else { return nil }
            slower = LinePacing(burst: 1, gap: min(interval * 2, slowestRawPacing.gap))
        }
        setLinePacing(slower, settled: true)
        let microseconds = Int((slower.gap.seconds * 1_000_000).rounded())
        return "writing raw messages more slowly (\(Self.rawPieceSize) bytes every \(microseconds) µs)"
    }

    public func setLinePacing(_ pacing: LinePacing, settled: Bool) {
        state.withLock {
            $0.pacing = pacing
            $0.pacingIsSettled = settled
        }
        logger.debug("\(endpoint): line pacing \(pacing)\(settled ? " (settled)" : "")")
        // Raw pacing follows from the line's rate: only learned console pacing is remembered.
        if settled, options.framing.usesConsoleLines { pacingLearned?(pacing) }
    }

    /// The lines (or the raw message, whole or in paced pieces) that carry `message`.
    private func units(of message: [UInt8]) -> [[UInt8]] {
        if options.framing.usesConsoleLines { return encoder.lines(for: message) }
        guard !linePacing.isUnpaced else { return [message] }
        return stride(from: 0, to: message.count, by: Self.rawPieceSize).map {
            Array(message[$0..<min($0 + Self.rawPieceSize, message.count)])
        }
    }

    public func send(_ message: [UInt8]) async throws {
        guard message.count <= SerialFrameEncoder.maximumEncodableMessageSize else {
            throw SMPTransportError(
                .io, "\(endpoint): a message of \(message.count) bytes does not fit a serial packet "
                    + "(at most \(SerialFrameEncoder.maximumEncodableMessageSize))")
        }
        let lines = units(of: message)
        var retriedAfterReopening = false
        while true {
            let connection = try await currentConnection()
            // Counted before the write: the answer can be read (by another task) before this one
            // resumes from the write, and statistics never show more answers than requests.
            let bytes = lines.reduce(0) { $0 + $1.count }
            state.withLock {
                $0.statistics.messagesSent += 1
                $0.statistics.bytesSent += bytes
            }
            do {
                try await connection.io.write(lines, pacing: linePacing)
                return
            } catch {
                state.withLock {
                    $0.statistics.messagesSent -= 1
                    $0.statistics.bytesSent -= bytes
                }
                // The port failed under the write: the device went away.
                let detail = error.detail
                linkEnded(generation: connection.generation, detail: detail)
                if retriedAfterReopening { throw SerialPortFailure.disappeared(connection.port.path, detail: detail) }
                // Once more: the link's error is thrown, or the device came back and gets the message.
                retriedAfterReopening = true
            }
        }
    }

    public func close() async {
        let closed = SMPTransportError(.closed, "the connection to \(endpoint) was closed")
        let ending = state.withLock { $0.close(with: closed) }
        ending.relocation?.cancel()
        for waiter in ending.waiters { waiter.resume(returning: .failure(closed)) }
        if let connection = ending.connection { await Self.shut(connection) }
        for connection in ending.lost { await Self.shut(connection) }
        continuation.finish()
    }

    // MARK: Opening

    /// Opens the port (or connects to the serial server) at `path` and starts reading it.
    func connect(path: String) async throws(SMPTransportError) -> SerialConnection {
        let port = try await SerialEndpoint.openStream(path, options: options, logger: logger)
        let generation = state.withLock { state in
            state.generation += 1
            state.path = path
            state.decoder.reset()
            return state.generation
        }
        do {
            let io = try SerialIO(
                stream: port, path: path,
                received: { [self] bytes in received(bytes) },
                ended: { [self] detail in linkEnded(generation: generation, detail: detail) })
            return SerialConnection(port: port, io: io, generation: generation)
        } catch {
            port.close()
            throw error
        }
    }

    /// Stops reading and writing, discards what the port holds unsent, releases the port's
    /// exclusivity and closes it (see ``SerialIO``); suspends until it is closed.
    ///
    /// Every request answered has been sent in full, so unsent bytes belong to requests nobody
    /// awaits (a cancelled upload's window): sent anyway, they would hold up the next session on a
    /// slow line, and on a stuck one (CTS low) `close()` would wait for the driver's closing wait.
    static func shut(_ connection: SerialConnection) async {
        await connection.io.stop()
    }

    // MARK: Receiving

    /// Bytes from the port (on the reader's queue): reassemble, count, deliver.
    private func received(_ bytes: [UInt8]) {
        let messages = state.withLock { state in
            state.statistics.countUnprintable(in: bytes)
            let messages = state.decoder.feed(bytes)
            for message in messages { state.statistics.countEcho(of: message) }
            return messages
        }
        for message in messages { continuation.yield(message) }
    }

    /// The connection to send on, waiting while the device is being brought back.
    private func currentConnection() async throws(SMPTransportError) -> SerialConnection {
        let result: Result<SerialConnection, SMPTransportError> = await withCheckedContinuation { waiter in
            state.withLock { state in
                switch state.phase {
                case .open(let connection): waiter.resume(returning: .success(connection))
                case .opening, .relocating: state.waiters.append(waiter)
                case .closed(let error): waiter.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
