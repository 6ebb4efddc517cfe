import CBOR

/// One request to send: where it goes, what it carries, and how the client may treat it.
public struct SMPRequest: Sendable, Hashable {
    /// Management group.
    public var group: SMPGroup
    /// Command ID within the group.
    public var command: UInt8
    /// `.read` or `.write`.
    public var operation: SMPOperation
    /// The CBOR payload (an empty map for commands without parameters).
    public var payload: CBORMap
    /// Whether sending the request twice is harmless, so that a lost response may be retried.
    /// Never true for a reset, an erase or a state write.
    public var isRetrySafe: Bool
    /// A timeout for this request instead of the client's default (e.g. a slot erase).
    public var timeout: Duration?
    /// A name for messages, such as "os echo"; nil for raw requests.
    public var name: String?
    /// Whether the client sends the request again at once when a later request of the same group
    /// and command is answered first on a link that answers in order (it was lost). False for the
    /// chunks of a windowed upload: the later chunk's answer names the offset the upload engine
    /// rewinds to, and a second copy of the lost chunk would write it twice (on a full LittleFS
    /// that fails). Overtaken by anything else (a probe), it is sent again all the same.
    public var isResentWhenOvertaken = true

    /// Creates a request; reads are retry-safe unless said otherwise, writes are not.
    public init(
        group: SMPGroup, command: UInt8, operation: SMPOperation, payload: CBORMap = [:],
        isRetrySafe: Bool? = nil, timeout: Duration? = nil, name: String? = nil
    ) {
        self.group = group
        self.command = command
        self.operation = operation
        self.payload = payload
        self.isRetrySafe = isRetrySafe ?? (operation == .read)
        self.timeout = timeout
        self.name = name
    }
}
