/// How a serial port is set up for SMP: line speed, flow control and console framing.
///
/// The connection string's serial options map onto it: `baud`, `flow=rtscts|none`, `line`, `mtu`.
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

    /// Creates options.
    public init(
        baudRate: Int = 115_200, hardwareFlowControl: Bool = false,
        lineLength: Int = SerialFrameEncoder.defaultLineLength, maximumMessageSize: Int? = nil
    ) {
        self.baudRate = baudRate
        self.hardwareFlowControl = hardwareFlowControl
        self.lineLength = lineLength
        self.maximumMessageSize = maximumMessageSize
    }
}
