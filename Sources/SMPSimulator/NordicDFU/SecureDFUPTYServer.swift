import DescriptorIO
import Logging
import NordicDFU

/// Serves a ``SecureDFUTarget`` on a pseudo-terminal as an nRF5 SDK serial DFU bootloader does on
/// its UART or USB CDC port: the host opens the slave end (through a symbolic link such as
/// `/tmp/ttyDFU`) and speaks SLIP-framed Secure DFU to it.
///
/// The host may close and reopen the port at will; the bootloader's state (init packet, image
/// received) stays, as it does on a device. A disconnect fault
/// (``SecureDFUTargetFaults/disconnectAfterDataBytes``) makes the device "re-enumerate": the
/// pseudo-terminal is closed (the host sees the device disappear) and a new one is linked at
/// the same path.
///
/// ```swift
/// let server = SecureDFUPTYServer(target: SecureDFUTarget(configuration: …), linkPath: "/tmp/ttyDFU")
/// let path = try await server.start()
/// …
/// await server.stop()
/// ```
public actor SecureDFUPTYServer {
    /// The symbolic link made to the slave, if one was asked for.
    public nonisolated let linkPath: String?
    /// The bootloader served, with its statistics and installed images.
    public private(set) var target: SecureDFUTarget
    /// Frames the SLIP decoder passed or dropped, added up when each host connection ends.
    public private(set) var framing = SLIPDecoder.Statistics()
    /// How often the host opened the port.
    public private(set) var hostConnections = 0

    private let logger: Logger
    private var terminal: PseudoTerminal?
    private var channel: DescriptorChannel?
    private var serving: Task<Void, Never>?

    /// Creates a server; nothing is opened until ``start()``.
    ///
    /// - Parameters:
    ///   - target: the bootloader to serve.
    ///   - linkPath: where to make a symbolic link to the slave (a stale link there is replaced,
    ///     anything else is left alone and ``start()`` fails); nil for none.
    public init(target: SecureDFUTarget, linkPath: String? = nil, logger: Logger = Logger(label: "nordic.dfu.simulator")) {
        self.target = target
        self.linkPath = linkPath
        self.logger = logger
    }

    /// The path hosts open while the server runs: the link, or the slave itself.
    public var path: String? { terminal.map { linkPath ?? $0.devicePath } }

    /// Opens the pseudo-terminal, makes the link and starts serving; returns the path to open.
    @discardableResult
    public func start() throws(SimulatorServerError) -> String {
        guard terminal == nil else { throw SimulatorServerError(.alreadyStarted, "\(path ?? "serial link"): already running") }
        let terminal = try openTerminal()
        serving = Task { await self.serve() }
        return linkPath ?? terminal.devicePath
    }

    /// Stops serving: the host sees the device disappear; the link is removed.
    public func stop() async {
        serving?.cancel()
        channel?.close()
        await serving?.value
        serving = nil
        closeTerminal()
    }

    private func openTerminal() throws(SimulatorServerError) -> PseudoTerminal {
        let terminal = try PseudoTerminal.open(linkedAt: linkPath)
        self.terminal = terminal
        logger.debug("virtual Secure DFU bootloader on \(linkPath ?? terminal.devicePath) (\(terminal.devicePath))")
        return terminal
    }

    private func closeTerminal() {
        guard let terminal else { return }
        terminal.close()
        if let linkPath { terminal.unlink(link: linkPath) }
        self.terminal = nil
    }

    /// Serves each opening of the slave by the host; between openings it polls until the host
    /// is back.
    private func serve() async {
        while !Task.isCancelled {
            guard let terminal, terminal.hostIsConnected(), let descriptor = terminal.duplicateMaster() else {
                try? await Task.sleep(for: .milliseconds(5))
                continue
            }
            let channel: DescriptorChannel
            do {
                channel = try DescriptorChannel(owning: descriptor, readMode: .continuous)
            } catch {
                logger.debug("Secure DFU simulator: cannot serve the master: \(error.detail)")
                try? await Task.sleep(for: .milliseconds(50))
                continue
            }
            self.channel = channel
            hostConnections += 1
            let reenumerate = await converse(on: channel)
            channel.close()
            await channel.closed()
            self.channel = nil
            if reenumerate && !Task.isCancelled {
                closeTerminal()
                do {
                    _ = try openTerminal()
                } catch {
                    logger.error("Secure DFU simulator: cannot come back after the disconnect: \(error)")
                    return
                }
            }
        }
    }

    /// Answers the host's frames until it closes its end (false) or a disconnect fault fires (true).
    private func converse(on channel: DescriptorChannel) async -> Bool {
        // One SLIP frame is at most the MTU encoded; a write's data at most (MTU − 1) / 2 − 1 bytes.
        var decoder = SLIPDecoder(maximumFrameSize: max(target.configuration.mtu, 16))
        defer { framing = Self.adding(decoder.statistics, to: framing) }
        do {
            for try await chunk in channel.reads {
                for frame in decoder.feed(chunk.bytes) {
                    let reply = target.handle(frame)
                    if let answer = reply.answer { try await channel.write([SLIP.encode(answer)]) }
                    if reply.disconnect { return true }
                }
            }
        } catch {
            // The host closed the slave (EIO or a hang-up on the master), or a write failed.
        }
        return false
    }

    private static func adding(_ more: SLIPDecoder.Statistics, to total: SLIPDecoder.Statistics) -> SLIPDecoder.Statistics {
        var sum = total
        sum.frames += more.frames
        sum.invalidEscapes += more.invalidEscapes
        sum.oversized += more.oversized
        return sum
    }
}
