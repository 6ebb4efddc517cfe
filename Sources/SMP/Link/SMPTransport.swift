/// A link that moves whole SMP messages to and from one device.
///
/// The core never knows which transport it talks over: framing, fragmentation and reassembly live
/// in the transport; sequence numbers, matching, timeouts and windows live in ``SMPClient``.
public protocol SMPTransport: Sendable {
    /// Where the link goes, for messages ("udp:127.0.0.1:1337").
    var endpoint: String { get }

    /// The largest SMP message (header included) the link itself can carry.
    var maximumMessageSize: Int { get }

    /// What to assume when the device does not report MCUmgr parameters.
    var defaultParameters: MCUmgrParameters { get }

    /// Bytes of each device buffer that the transport's framing occupies, so that the largest
    /// message the device accepts is `buf_size` minus this (serial: 2-byte length + 2-byte CRC).
    var deviceBufferOverhead: Int { get }

    /// Whether the device handles requests one at a time in the order they were sent, and the link
    /// neither reorders nor duplicates them (a serial line). Then an answer to a later request
    /// while an earlier one is unanswered proves the earlier one lost, and ``SMPClient`` sends it
    /// again at once instead of waiting for its timeout.
    var answersInOrder: Bool { get }

    /// How long the device keeps the start of a message whose rest did not arrive, when the link
    /// has no markers to find the next message by (raw serial: MCUboot's recovery and Zephyr's
    /// raw UART transport drop a partial message after 3 s without input). ``SMPClient`` sends a
    /// request again only once this much time has passed since it was written, so that the resend
    /// is not taken as the rest of the lost copy. Nil: the link delimits messages.
    var partialMessageExpiry: Duration? { get }

    /// Whether the link is a session the device forgets when it resets (DTLS): the device then
    /// drops what is sent on it without a word, so that after a reset a silent link is opened
    /// anew instead of waited on.
    var sessionEndsWithDeviceReset: Bool { get }

    /// Received frames, each holding one or more whole SMP messages. The stream finishes when the
    /// link is closed and throws an ``SMPTransportError`` when the link fails. It is iterated once.
    var inbound: AsyncThrowingStream<[UInt8], any Error> { get }

    /// Sends one whole SMP message.
    func send(_ message: [UInt8]) async throws

    /// Closes the link; ``inbound`` finishes. Idempotent.
    func close() async
}

extension SMPTransport {
    /// Most transports hand the device the bare message.
    public var deviceBufferOverhead: Int { 0 }

    /// Most links may reorder (UDP) or cannot tell.
    public var answersInOrder: Bool { false }

    /// Most links delimit messages (datagrams, console frames, BLE packets).
    public var partialMessageExpiry: Duration? { nil }

    /// Most links carry no session of their own (a datagram, a serial line, a BLE connection that
    /// a reset ends visibly).
    public var sessionEndsWithDeviceReset: Bool { false }
}
