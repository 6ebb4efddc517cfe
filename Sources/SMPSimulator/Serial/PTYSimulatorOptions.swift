import SMPConsoleFraming

/// How a ``PTYSimulatorServer`` behaves like a real UART: framing, receive line buffers, speed,
/// console output sharing the line, and damage.
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
    /// How SMP messages travel: console lines (Zephyr's UART transport), bare messages (its raw
    /// UART transport) or console lines through an interactive shell (its shell transport).
    public var framing: SerialFraming
    /// The receive line buffers SMP lines need (console and shell framings); nil: as many as it
    /// takes, lines of any length (no line is ever dropped).
    public var lineBuffers: LineBuffers?
    /// With the raw framing, MCUboot's raw recovery receive path: of the bytes that arrive
    /// together (one read of the pseudo-terminal, written back to back), at most this many are
    /// kept, as its `BOOT_LINE_BUFS` fragment buffers keep a burst only up to their count on a
    /// UART that interrupts per byte; the rest is dropped. A partial message is then dropped after
    /// 3 s without input (`BOOT_SERIAL_RAW_PROTOCOL_INPUT_TIMEOUT_MS`). Nil: nothing is dropped.
    public var rawBurstLimit: Int?

    /// Zephyr's receive line buffers: `CONFIG_UART_MCUMGR_RX_BUF_COUNT` buffers of
    /// `CONFIG_UART_MCUMGR_RX_BUF_SIZE` bytes, each freed once the device has processed its line.
    public struct LineBuffers: Sendable, Hashable {
        /// How many lines the device holds at once.
        public var count: Int
        /// The longest line a buffer takes, markers and `\n` included; longer lines are dropped.
        public var size: Int
        /// How long after a line's end its buffer is taken (the device's work queue processing it).
        public var drain: Duration

        /// `count` buffers (at least 1) of `size` bytes (at least 3), each freed `drain` after its line.
        public init(count: Int, size: Int = 128, drain: Duration = .milliseconds(10)) {
            self.count = max(1, count)
            self.size = max(3, size)
            self.drain = max(.zero, drain)
        }

        /// The stock UART transport: 2 buffers of 128 bytes, freed within 10 ms (Zephyr 4.4
        /// native_sim takes 2 lines per 10–20 ms and loses the third of a burst).
        public static let zephyrUART = LineBuffers(count: 2, size: 128)
        /// The shell transport: 2 SMP buffers of 127 bytes.
        public static let zephyrShell = LineBuffers(count: 2, size: 127)
    }

    /// Creates options; fractions are clamped to 0…1.
    public init(
        baudRate: Int? = nil, logLinesPerSecond: Double = 0, logLinesInsideFrames: Bool = false, noise: Double = 0,
        crcErrors: Double = 0, lineLength: Int = SerialFrameEncoder.defaultLineLength, seed: UInt64 = 0x5EED,
        framing: SerialFraming = .console, lineBuffers: LineBuffers? = nil, rawBurstLimit: Int? = nil
    ) {
        self.baudRate = baudRate.map { max(1, $0) }
        self.logLinesPerSecond = logLinesPerSecond.isFinite ? max(0, logLinesPerSecond) : 0
        self.logLinesInsideFrames = logLinesInsideFrames
        self.noise = Self.clamp(noise)
        self.crcErrors = Self.clamp(crcErrors)
        self.lineLength = lineLength
        self.seed = seed
        self.framing = framing
        self.lineBuffers = lineBuffers
        self.rawBurstLimit = rawBurstLimit.map { max(1, $0) }
    }

    private static func clamp(_ value: Double) -> Double {
        value.isNaN ? 0 : min(1, max(0, value))
    }
}
