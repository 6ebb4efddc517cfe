/// Why received bytes could not be taken as an SMP message.
public enum SMPFrameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer than 8 bytes where a header was expected.
    case truncatedHeader(count: Int)
    /// Operation bits 4–7, which SMP does not define.
    case invalidOperation(UInt8)
    /// The header declares more payload than the frame holds.
    case lengthMismatch(declared: Int, available: Int)
    /// The payload is not valid CBOR.
    case invalidCBOR(String)
    /// The payload is valid CBOR but not a map.
    case payloadNotAMap(String)

    public var description: String {
        switch self {
        case .truncatedHeader(let count):
            return "truncated header (\(count) byte\(count == 1 ? "" : "s"), 8 needed)"
        case .invalidOperation(let op):
            return "invalid operation \(op) in header"
        case .lengthMismatch(let declared, let available):
            return "header declares \(declared) payload bytes but \(available) arrived"
        case .invalidCBOR(let detail):
            return "payload is not valid CBOR (\(detail))"
        case .payloadNotAMap(let type):
            return "payload is a CBOR \(type), not a map"
        }
    }
}
