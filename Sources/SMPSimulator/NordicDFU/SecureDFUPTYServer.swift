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
    public nonisolated var linkPath: String? { sessions.linkPath }
    /// The bootloader served, with its statistics and installed images.
    public private(set) var target: SecureDFUTarget
    /// Frames the SLIP decoder passed or dropped, added up when each host connection ends.
    public private(set) var framing = SLIPDecoder.Statistics()
    /// How often the host opened the port.
    public var hostConnections: Int { sessions.hostConnections }

    private nonisolated let sessions: PseudoTerminalSessions

    /// Creates a server; nothing is opened until ``start()``.
    ///
    /// - Parameters:
    ///   - target: the bootloader to serve.
    ///   - linkPath: where to make a symbolic link to the slave (a stale link there is replaced,
    ///     anything else is left alone and ``start()`` fails); nil for none.
    public init(target: SecureDFUTarget, linkPath: String? = nil, logger: Logger = Logger(label: "nordic.dfu.simulator")) {
        self.target = target
        sessions = PseudoTerminalSessions(linkPath: linkPath, name: "Secure DFU bootloader", logger: logger)
    }

    /// The path hosts open while the server runs: the link, or the slave itself.
    public var path: String? { sessions.path }

    /// Opens the pseudo-terminal, makes the link and starts serving; returns the path to open.
    @discardableResult
    public func start() throws(SimulatorServerError) -> String {
        try sessions.start { [self] channel in await converse(on: channel) }
    }

    /// Stops serving: the host sees the device disappear; the link is removed.
    public func stop() async {
        await sessions.stop()
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
