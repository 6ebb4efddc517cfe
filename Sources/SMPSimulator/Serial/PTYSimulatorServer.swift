#if canImport(Glibc)
import Glibc
#endif
import Logging
import DescriptorIO
import SMP
import SMPConsoleFraming

/// Serves a ``VirtualDevice`` (or any ``SimulatedFrameHandler``) on a pseudo-terminal, as a
/// Zephyr device with `CONFIG_MCUMGR_TRANSPORT_UART` does on its UART: the host opens the slave
/// end (through a symbolic link such as `/tmp/ttySMP`) like a real serial port and talks "SMP over
/// console" to it.
///
/// Received lines are reassembled by ``SerialFrameDecoder`` (packets above `buf_size − 4` are
/// dropped, as on the device), passed through the device's fault injection, and answered with
/// Zephyr's own line splitting (``SerialFrameEncoder/Style/zephyrDevice``), in the order the
/// device produced them, each after its delivery's delay at the earliest. Options make the line
/// behave like a real UART: pacing at a baud rate in both directions, log lines between SMP
/// lines (and inside multi-line answers), noise bursts and CRC errors.
///
/// Like the real firmware, SMP lines can need one of a few receive line buffers
/// (``PTYSimulatorOptions/lineBuffers``): lines that find none, or outgrow one, are dropped. The
/// framing can also be Zephyr's raw UART transport (bare messages up to `buf_size`) or its shell
/// transport (the SMP lines share the UART with an interactive shell: prompt, echo, commands).
///
/// The host may close and reopen the link at will; stopping the server closes the master, which
/// the host sees as the device disappearing.
///
/// ```swift
/// let server = PTYSimulatorServer(device: VirtualDevice(), linkPath: "/tmp/ttySMP")
/// let path = try await server.start()   // "/tmp/ttySMP" → /dev/pts/N
/// …
/// await server.stop()
/// ```
public actor PTYSimulatorServer {
    /// What answers the requests (the device served).
    public nonisolated let handler: any SimulatedFrameHandler
    /// The symbolic link made to the slave, if one was asked for.
    public nonisolated let linkPath: String?
    /// Speed, console output and damage.
    public nonisolated let options: PTYSimulatorOptions
    /// The largest request (SMP message) accepted: larger ones are dropped, as by Zephyr's reassembly.
    public nonisolated let maximumMessageSize: Int

    /// The slave's path (`/dev/pts/N`) while the server runs.
    public private(set) var devicePath: String?
    /// What the server has seen and done.
    public var statistics: PTYSimulatorStatistics {
        var snapshot = counters
        snapshot.framing = decoder.statistics
        return snapshot
    }

    private let logger: Logger
    private let encoder: SerialFrameEncoder
    private var counters = PTYSimulatorStatistics()
    private var decoder: DeviceMessageDecoder
    /// When the last raw bytes arrived (``PTYSimulatorOptions/rawBurstLimit``).
    private var lastRawInput: ContinuousClock.Instant?
    private var lineBuffers: SerialLineBuffers?
    private var shell: SimulatedShell?
    private var impairment: SerialLineImpairment
    private var console = ConsoleLogLines()
    private var inputPacer: SerialLinePacer?
    private var outputPacer: SerialLinePacer?
    private var terminal: PseudoTerminal?
    private var channel: DescriptorChannel?
    private var outbound: AsyncStream<[UInt8]>.Continuation?
    private var answers: AsyncStream<ScheduledAnswer>.Continuation?
    private var schedule = InOrderSchedule<ContinuousClock.Instant>()
    private var inputs: AsyncStream<PTYInput>.Continuation?
    private var tasks: [Task<Void, Never>] = []
    private var startedAt = ContinuousClock.now
    private var stopping: Task<Void, Never>?

    /// Creates a server for a device; nothing is opened until ``start()``. Requests larger than
    /// the device's `buf_size − 4` (the length and CRC share the buffer), or `buf_size` with the
    /// raw framing, are dropped.
    ///
    /// - Parameters:
    ///   - device: the device to serve.
    ///   - linkPath: where to make a symbolic link to the slave (a stale link there is replaced,
    ///     anything else is left alone and ``start()`` fails); nil for none.
    ///   - options: pacing, log lines, noise and CRC errors.
    public init(
        device: VirtualDevice, linkPath: String? = nil, options: PTYSimulatorOptions = PTYSimulatorOptions(),
        logger: Logger = Logger(label: "smp.simulator.serial")
    ) {
        self.init(
            handler: device, shellDevice: device.configuration,
            maximumMessageSize: Self.maximumMessageSize(of: device.configuration, framing: options.framing),
            linkPath: linkPath, options: options, logger: logger)
    }

    /// The largest request the device takes on this framing: its buffer (the larger of the
    /// application's and serial recovery's, which the device then applies to each) less the
    /// length and CRC on console lines.
    static func maximumMessageSize(of configuration: VirtualDeviceConfiguration, framing: SerialFraming) -> Int {
        let buffer = max(configuration.bufferSize, configuration.recovery?.receiveCapacity ?? 0)
        return framing == .raw ? buffer : SerialFrameEncoder.maximumMessageSize(bufferSize: buffer)
    }

    /// Creates a server for any frame handler; nothing is opened until ``start()``. With the shell
    /// framing, the shell on the UART runs the commands of `shellDevice`.
    public init(
        handler: any SimulatedFrameHandler, shellDevice: VirtualDeviceConfiguration = VirtualDeviceConfiguration(),
        maximumMessageSize: Int = 65_535 + 8, linkPath: String? = nil,
        options: PTYSimulatorOptions = PTYSimulatorOptions(),
        logger: Logger = Logger(label: "smp.simulator.serial")
    ) {
        self.handler = handler
        self.maximumMessageSize = maximumMessageSize
        self.linkPath = linkPath
        self.options = options
        self.logger = logger
        encoder = SerialFrameEncoder(lineLength: options.lineLength, style: .zephyrDevice)
        decoder = DeviceMessageDecoder(framing: options.framing, maximumMessageSize: maximumMessageSize)
        if options.framing != .raw, let buffers = options.lineBuffers {
            lineBuffers = SerialLineBuffers(count: buffers.count, size: buffers.size, drain: buffers.drain)
        } else if options.framing == .shell {
            lineBuffers = .unlimited  // still needed to tell SMP lines from shell input
        }
        shell = options.framing == .shell ? SimulatedShell(configuration: shellDevice) : nil
        impairment = SerialLineImpairment(noise: options.noise, crcErrors: options.crcErrors, seed: options.seed)
    }

    /// The path hosts open while the server runs: the link, or the slave itself.
    public var path: String? { devicePath.map { linkPath ?? $0 } }

    /// Opens the pseudo-terminal, makes the link and starts serving; returns the path to open.
    @discardableResult
    public func start() throws(SimulatorServerError) -> String {
        guard terminal == nil else { throw SimulatorServerError(.alreadyStarted, "\(path ?? "serial link"): already running") }
        let terminal = try PseudoTerminal.open(linkedAt: linkPath)
        self.terminal = terminal
        devicePath = terminal.devicePath
        startedAt = .now
        inputPacer = options.baudRate.map(SerialLinePacer.init(baudRate:))
        outputPacer = inputPacer
        let (inputStream, inputs) = AsyncStream<PTYInput>.makeStream()
        let (lines, outbound) = AsyncStream<[UInt8]>.makeStream()
        let (answerStream, answers) = AsyncStream<ScheduledAnswer>.makeStream()
        self.inputs = inputs
        self.outbound = outbound
        self.answers = answers
        tasks = [
            Task { await self.watchHost(terminal, inputs: inputs) },
            Task { await self.consume(inputStream) },
            Task { await self.send(answerStream) },
            Task { await self.write(lines) },
        ]
        if options.logLinesPerSecond > 0 { tasks.append(Task { await self.writeLogLines() }) }
        let path = linkPath ?? terminal.devicePath
        logger.debug("virtual SMP device on \(path) (\(terminal.devicePath))")
        return path
    }

    /// Serves until the calling task is cancelled (Ctrl-C in `smpctl simulate`), starting first
    /// if needed, then stops.
    public func run() async throws(SimulatorServerError) {
        if terminal == nil { try start() }
        let tasks = self.tasks
        await withTaskCancellationHandler {
            for task in tasks { await task.value }
        } onCancel: {
            Task { await self.stop() }
        }
        await stop()
    }

    /// Stops serving: the host sees the device disappear; the link is removed.
    public func stop() async {
        // A second call while the first is still closing waits for it, so that every caller
        // returns with the link gone (`run()` stops on cancellation and again at its end).
        if let stopping {
            await stopping.value
            return
        }
        guard let terminal else { return }
        let teardown = Task { await self.tearDown(terminal) }
        stopping = teardown
        await teardown.value
        stopping = nil
    }

    private func tearDown(_ terminal: PseudoTerminal) async {
        self.terminal = nil
        let tasks = self.tasks
        self.tasks = []
        for task in tasks { task.cancel() }
        inputs?.finish()
        answers?.finish()
        outbound?.finish()
        inputs = nil
        answers = nil
        outbound = nil
        if let channel {
            channel.close()
            await channel.closed()
        }
        channel = nil
        for task in tasks { await task.value }
        terminal.close()
        if let linkPath { terminal.unlink(link: linkPath) }
        devicePath = nil
    }

    // MARK: The host's end

    /// Serves each opening of the slave by the host with a channel on the master; between
    /// openings (when reads would fail with EIO) it polls until the host is back. The host
    /// closing its end ends the channel (a hang-up or EIO on the master).
    private func watchHost(_ terminal: PseudoTerminal, inputs: AsyncStream<PTYInput>.Continuation) async {
        let chunk = inputPacer?.chunkSize ?? 4096
        while !Task.isCancelled {
            guard terminal.hostIsConnected(), let descriptor = terminal.duplicateMaster() else {
                try? await Task.sleep(for: .milliseconds(10))
                continue
            }
            let channel: DescriptorChannel
            do {
                channel = try DescriptorChannel(owning: descriptor, readMode: readsFreely ? .continuous : .onRequest, readSize: chunk)
            } catch {
                logger.debug("serial simulator: cannot serve the master: \(error.detail)")
                try? await Task.sleep(for: .milliseconds(50))
                continue
            }
            guard !Task.isCancelled else {
                channel.close()
                return
            }
            self.channel = channel
            counters.hostConnections += 1
            decoder.reset()
            lineBuffers?.reset(at: .now)
            // The shell's start-up prompt: kept for the first host, as a pseudo-terminal keeps
            // what a booting device printed before anyone opened it.
            if shell != nil && counters.hostConnections == 1 { queue(SimulatedShell.banner) }
            logger.debug("serial simulator: the host opened \(path ?? terminal.devicePath)")
            channel.requestRead()
            await Self.forward(channel, to: inputs)
            channel.close()
            await channel.closed()
            if self.channel === channel { self.channel = nil }
            logger.debug("serial simulator: the host closed \(path ?? terminal.devicePath)")
        }
    }

    /// Passes what the host writes on `channel` to the server until the host closes its end (or
    /// the server stops).
    private nonisolated static func forward(_ channel: DescriptorChannel, to inputs: AsyncStream<PTYInput>.Continuation) async {
        do {
            for try await chunk in channel.reads {
                inputs.yield(PTYInput(bytes: chunk.bytes, channel: channel, receivedAt: chunk.time))
            }
        } catch {
            // The host closed the slave: EIO or a hang-up on the master.
        }
    }

    // MARK: Receiving

    /// Takes the host's bytes at the line's pace, reassembles packets and answers each one.
    private func consume(_ inputStream: AsyncStream<PTYInput>) async {
        for await input in inputStream {
            // What a host wrote but the device had not read when that host closed the link is
            // gone with it, as on a UART whose receiver is reset: the next host starts clean.
            guard input.channel === channel else { continue }
            counters.bytesReceived += input.bytes.count
            var arrived = input.receivedAt
            if var pacer = inputPacer {
                arrived = pacer.schedule(input.bytes.count, at: .now)
                inputPacer = pacer
                try? await Task.sleep(until: arrived, clock: .continuous)
                guard input.channel === channel else { continue }
            }
            // With line buffers, a request is handled once its last line has been processed, which
            // also frees the buffers of all its lines: no answer comes before that.
            let processed = arrived + (lineBuffers?.drain ?? .zero)
            for message in receive(rawBurstKept(of: input.bytes, at: arrived), at: arrived) {
                guard await handler.accepts(messageOfSize: message.count, framingOverhead: options.framing == .raw ? 0 : 4) else {
                    logger.debug("dropped a request of \(message.count) bytes: larger than the device's buffer now takes")
                    continue
                }
                for delivery in await handler.deliveries(for: message) {
                    let due = schedule.sendTime(earliest: max(.now, processed) + max(.zero, delivery.delay))
                    answers?.yield(ScheduledAnswer(bytes: delivery.bytes, due: due))
                }
            }
            if !readsFreely { input.channel.requestRead() }
        }
    }

    /// What MCUboot's raw recovery keeps of `bytes` that arrived together at `arrival`
    /// (``PTYSimulatorOptions/rawBurstLimit``): a partial message older than 3 s is dropped
    /// first, then the burst beyond the limit.
    private func rawBurstKept(of bytes: [UInt8], at arrival: ContinuousClock.Instant) -> [UInt8] {
        guard options.framing == .raw, let limit = options.rawBurstLimit else { return bytes }
        if let last = lastRawInput, arrival - last >= .seconds(3), decoder.hasPartialMessage {
            decoder.reset()
            counters.rawPartialsExpired += 1
        }
        lastRawInput = arrival
        guard bytes.count > limit else { return bytes }
        counters.rawBytesOverrun += bytes.count - limit
        return Array(bytes.prefix(limit))
    }

    /// Whether the master is read as soon as bytes arrive (see ``PTYInput``): on an
    /// unpaced line with receive line buffers, which judge bursts by their arrival times.
    private var readsFreely: Bool { inputPacer == nil && lineBuffers != nil }

    /// Passes bytes that arrived at `arrival` through the line buffers (if any) and the shell (if
    /// any) to the decoder; returns the complete requests.
    private func receive(_ bytes: [UInt8], at arrival: ContinuousClock.Instant) -> [[UInt8]] {
        guard var buffers = lineBuffers else { return decoder.feed(bytes) }
        let events = buffers.receive(bytes, at: arrival)
        lineBuffers = buffers
        var messages: [[UInt8]] = []
        for event in events {
            switch event {
            case .line(let line):
                messages += decoder.feed(line)
            case .text(let text):
                if var shell {
                    let output = shell.input(text, uptime: .now - startedAt)
                    counters.shellCommands += text.count { $0 == 0x0D || $0 == 0x0A }
                    self.shell = shell
                    if !output.isEmpty { queue(output) }
                } else {
                    messages += decoder.feed(text)
                }
            case .overrun:
                counters.linesOverrun += 1
                if let shell { queue(shell.overrunWarning(uptime: .now - startedAt)) }
            case .tooLong:
                counters.linesTooLong += 1
            }
        }
        return messages
    }

    // MARK: Sending

    /// A response waiting for its send time.
    private struct ScheduledAnswer: Sendable {
        var bytes: [UInt8]
        var due: ContinuousClock.Instant
    }

    /// Sends the device's responses in order, each at its time (send times never decrease).
    private func send(_ answers: AsyncStream<ScheduledAnswer>) async {
        for await answer in answers {
            if answer.due > .now { try? await Task.sleep(until: answer.due, clock: .continuous) }
            respond(answer.bytes)
        }
    }

    /// Queues one response's lines, damaged and interleaved as the options say (with the raw
    /// framing: the bare message).
    private func respond(_ message: [UInt8]) {
        guard outbound != nil, !message.isEmpty else { return }
        guard options.framing != .raw else {
            counters.responses += 1
            queue(message)
            return
        }
        var lines = encoder.lines(for: message)
        if impairment.drawCRCError() {
            lines = impairment.withCRCError(lines)
            counters.crcErrors += 1
        }
        if options.logLinesInsideFrames && lines.count > 1 {
            lines.insert(nextLogLine(), at: 1)
        }
        counters.responses += 1
        for line in lines { queue(line) }
    }

    private func nextLogLine() -> [UInt8] {
        counters.logLines += 1
        return console.next(uptime: .now - startedAt)
    }

    private func queue(_ line: [UInt8]) {
        let (bytes, noisy) = impairment.withNoise(line)
        if noisy { counters.noiseBursts += 1 }
        outbound?.yield(bytes)
    }

    /// Writes queued lines to the host at the line's pace; lines written while no host has the
    /// link open are lost, as on a real UART.
    private func write(_ lines: AsyncStream<[UInt8]>) async {
        for await line in lines {
            if var pacer = outputPacer {
                let sent = pacer.schedule(line.count, at: .now)
                outputPacer = pacer
                try? await Task.sleep(until: sent, clock: .continuous)
            }
            guard let channel else {
                counters.linesDiscarded += 1
                continue
            }
            do {
                try await channel.write([line])
                counters.bytesSent += line.count
            } catch {
                counters.linesDiscarded += 1
            }
        }
    }

    /// Writes log lines at the configured rate.
    private func writeLogLines() async {
        let interval = Duration.nanoseconds(Int64(1e9 / max(0.001, options.logLinesPerSecond)))
        var next = ContinuousClock.now + interval
        while !Task.isCancelled {
            try? await Task.sleep(until: next, clock: .continuous)
            guard !Task.isCancelled else { return }
            next += interval
            queue(nextLogLine())
        }
    }
}
