import SMPConsoleFraming

/// What a ``PTYSimulatorServer`` has seen and done.
public struct PTYSimulatorStatistics: Sendable, Hashable, CustomStringConvertible {
    /// How many times a host opened the link.
    public var hostConnections = 0
    /// Bytes received from the host.
    public var bytesReceived = 0
    /// Bytes written to the host (SMP lines, log lines, noise).
    public var bytesSent = 0
    /// Lines not written because no host had the link open.
    public var linesDiscarded = 0
    /// SMP responses sent.
    public var responses = 0
    /// Log lines written.
    public var logLines = 0
    /// Lines that got a burst of noise.
    public var noiseBursts = 0
    /// Responses sent with a wrong CRC.
    public var crcErrors = 0
    /// SMP lines dropped because every receive line buffer was taken (see
    /// ``PTYSimulatorOptions/lineBuffers``).
    public var linesOverrun = 0
    /// SMP lines dropped because they were longer than a receive line buffer.
    public var linesTooLong = 0
    /// Raw bytes dropped because they came in a burst longer than
    /// ``PTYSimulatorOptions/rawBurstLimit``.
    public var rawBytesOverrun = 0
    /// Partial raw messages dropped after 3 s without input.
    public var rawPartialsExpired = 0
    /// Shell command lines run (shell framing).
    public var shellCommands = 0
    /// What the device's frame decoder saw of the host's lines.
    public var framing = SerialFrameDecoder.Statistics()

    /// Creates empty statistics.
    public init() {}

    /// SMP lines the receive line buffers dropped, for whatever reason.
    public var droppedLines: Int { linesOverrun + linesTooLong }

    public var description: String {
        "host connections=\(hostConnections) received=\(bytesReceived) B sent=\(bytesSent) B packets=\(framing.packets) "
            + "responses=\(responses) log lines=\(logLines) noise bursts=\(noiseBursts) CRC errors=\(crcErrors)"
            + (droppedLines > 0 ? " dropped lines=\(droppedLines) (\(linesOverrun) overrun, \(linesTooLong) too long)" : "")
            + (rawBytesOverrun > 0 ? " dropped raw bytes=\(rawBytesOverrun)" : "")
    }
}
