import SMP

/// How a serial port is set up for SMP: line speed, flow control and console framing.
///
/// The connection string's serial options map onto it: `baud`, `flow=rtscts|none`, `line`, `mtu`,
/// `framing`, `burst` and `gap`.
public struct SerialPortOptions: Sendable, Hashable {
    /// The baud rate: any rate the driver accepts. Standard rates up to 4 000 000 use the `B…`
    /// constants; others are set as custom rates (`termios2` with `BOTHER`).
    public var baudRate: Int
    /// RTS/CTS hardware flow control (`CRTSCTS`).
    public var hardwareFlowControl: Bool
    /// The longest console line sent, marker and newline included (Zephyr accepts 127).
    public var lineLength: Int
    /// The largest SMP message (header included) to send; nil leaves the limit to the device's
    /// `buf_size − 4` (from MCUmgr parameters, else Zephyr's default 384 − 4).
    public var maximumMessageSize: Int?
    /// How messages are carried: console lines, bare messages, or lines through the Zephyr shell.
    public var framing: SerialFraming
    /// How fast console lines go out; nil starts from `LinePacing.zephyrDefault` until the
    /// pacing is learned (`SMPClient.tuneLinePacing()`). A given pacing counts as settled.
    public var pacing: LinePacing?

    /// Creates options.
    public init(
        baudRate: Int = 115_200, hardwareFlowControl: Bool = false,
        lineLength: Int = SerialFrameEncoder.defaultLineLength, maximumMessageSize: Int? = nil,
        framing: SerialFraming = .console, pacing: LinePacing? = nil
    ) {
        self.baudRate = baudRate
        self.hardwareFlowControl = hardwareFlowControl
        self.lineLength = lineLength
        self.maximumMessageSize = maximumMessageSize
        self.framing = framing
        self.pacing = pacing
    }
}
