import SMPSerial

/// How a ``PTYSimulatorServer`` behaves like a real UART: speed, console output sharing the
/// line, and damage.
public struct PTYSimulatorOptions: Sendable, Hashable {
    /// Paces both directions at this baud rate (8N1: baud / 10 bytes per second), as a UART
    /// would; nil moves bytes as fast as the pseudo-terminal does.
    public var baudRate: Int?
    /// Zephyr-style log lines per second written between SMP lines (0: none).
    public var logLinesPerSecond: Double
    /// Also write a log line between the first and second line of every multi-line response.
    public var logLinesInsideFrames: Bool
    /// Fraction of lines (SMP and log) that get a burst of 1–8 random bytes.
    public var noise: Double
    /// Fraction of responses sent with a bit flipped after the CRC was computed.
    public var crcErrors: Double
    /// The device's `MCUMGR_SERIAL_MAX_FRAME`: the longest line it sends.
    public var lineLength: Int
    /// Seed of the generator that picks the damaged lines and packets.
    public var seed: UInt64

    /// Creates options; fractions are clamped to 0…1.
    public init(
        baudRate: Int? = nil, logLinesPerSecond: Double = 0, logLinesInsideFrames: Bool = false, noise: Double = 0,
        crcErrors: Double = 0, lineLength: Int = SerialFrameEncoder.defaultLineLength, seed: UInt64 = 0x5EED
    ) {
        self.baudRate = baudRate.map { max(1, $0) }
        self.logLinesPerSecond = logLinesPerSecond.isFinite ? max(0, logLinesPerSecond) : 0
        self.logLinesInsideFrames = logLinesInsideFrames
        self.noise = Self.clamp(noise)
        self.crcErrors = Self.clamp(crcErrors)
        self.lineLength = lineLength
        self.seed = seed
    }

    private static func clamp(_ value: Double) -> Double {
        value.isNaN ? 0 : min(1, max(0, value))
    }
}
