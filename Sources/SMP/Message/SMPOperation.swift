/// The operation of an SMP message (header bits 0–2).
public enum SMPOperation: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// Read request.
    case read = 0
    /// Response to a read request.
    case readResponse = 1
    /// Write request.
    case write = 2
    /// Response to a write request.
    case writeResponse = 3

    /// The operation a device answers this request with (read → read response, else write response).
    public var response: SMPOperation { self == .read ? .readResponse : .writeResponse }

    /// Whether this is a response operation.
    public var isResponse: Bool { self == .readResponse || self == .writeResponse }

    public var description: String {
        switch self {
        case .read: return "read"
        case .readResponse: return "read-response"
        case .write: return "write"
        case .writeResponse: return "write-response"
        }
    }
}
