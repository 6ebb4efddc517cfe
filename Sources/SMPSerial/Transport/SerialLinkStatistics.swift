/// What a serial link has carried, to explain a device that does not answer (see
/// ``SerialTransport/diagnosis()``).
public struct SerialLinkStatistics: Sendable, Hashable {
    /// What the frame decoder saw: packets, console bytes, CRC and base64 errors, … Received
    /// bytes in all are `framing.bytes`.
    public var framing = SerialFrameDecoder.Statistics()
    /// Received bytes that are neither printable ASCII nor line control (`\t`, `\r`, `\n`) nor
    /// framing markers: a high count without packets points to a wrong baud rate.
    public var unprintableBytes = 0
    /// Received SMP messages whose operation is a request (read or write): our own requests
    /// echoed back by the other end.
    public var echoedRequests = 0
    /// SMP messages sent.
    public var messagesSent = 0
    /// Bytes written to the port (lines, markers and newlines included).
    public var bytesSent = 0
    /// How many times the port was reopened after the device came back.
    public var reopens = 0
    /// Whether a Zephyr shell prompt (`~$ `, as in `uart:~$ `) came back: a shell runs on the line.
    public var shellPromptSeen = false
    /// The last bytes received, to find a prompt split across reads.
    private var tail: [UInt8] = []

    /// Creates empty statistics.
    public init() {}

    /// Counts received bytes that look like noise rather than text (ESC, which starts a terminal's
    /// colour codes, is text), and looks for a shell prompt.
    mutating func countUnprintable(in bytes: [UInt8]) {
        for byte in bytes where !(0x20...0x7E).contains(byte) {
            switch byte {
            case 0x09, 0x0A, 0x0D, 0x06, 0x04, 0x14, 0x1B: continue
            default: unprintableBytes += 1
            }
        }
        guard !shellPromptSeen else { return }
        let window = tail + bytes
        shellPromptSeen = window.indices.dropLast(2).contains { window[$0] == 0x7E && window[$0 + 1] == 0x24 && window[$0 + 2] == 0x20 }
        tail = Array(window.suffix(2))
    }

    /// Counts a received message whose operation is a request.
    mutating func countEcho(of message: [UInt8]) {
        guard let first = message.first, message.count >= 8 else { return }
        let operation = first & 0x07
        if operation == 0 || operation == 2 { echoedRequests += 1 }
    }
}
