/// A notification from the legacy DFU control point: a response to a request, or a packet
/// receipt notification.
public enum LegacyDFUNotification: Sendable, Hashable, CustomStringConvertible {
    /// `[0x10, op, status]`, and for ``LegacyDFUOpCode/reportReceivedSize`` a u32 byte count.
    case response(LegacyDFUResponse)
    /// `[0x11, u32]`: the firmware bytes the bootloader has received.
    case receipt(bytesReceived: UInt32)

    /// The bytes a bootloader sends.
    public var bytes: [UInt8] {
        switch self {
        case .response(let response):
            return [LegacyDFUOpCode.response.rawValue, response.request.rawValue, response.status.rawValue]
                + (response.bytesReceived.map { LittleEndian.bytes($0) } ?? [])
        case .receipt(let count):
            return [LegacyDFUOpCode.receiptNotification.rawValue] + LittleEndian.bytes(count)
        }
    }

    /// Reads a notification; every length and value is checked.
    public static func parse(_ bytes: [UInt8]) -> Result<LegacyDFUNotification, LegacyDFUError> {
        func malformed(_ problem: String) -> Result<LegacyDFUNotification, LegacyDFUError> {
            .failure(.malformed("\(problem): \(bytes.prefix(16).map { String($0, radix: 16) }.joined(separator: " "))", request: nil))
        }
        guard let first = bytes.first else { return malformed("an empty notification") }
        switch first {
        case LegacyDFUOpCode.receiptNotification.rawValue:
            guard bytes.count == 5 else { return malformed("a receipt notification of \(bytes.count) bytes (5 expected)") }
            return .success(.receipt(bytesReceived: UInt32(LittleEndian.value(bytes, at: 1, count: 4))))
        case LegacyDFUOpCode.response.rawValue:
            guard bytes.count >= 3 else { return malformed("a response of \(bytes.count) bytes") }
            guard let request = LegacyDFUOpCode(rawValue: bytes[1]) else { return malformed("a response to unknown op code \(bytes[1])") }
            guard let status = LegacyDFUStatus(rawValue: bytes[2]) else { return malformed("unknown status \(bytes[2]) for \(request)") }
            if request == .reportReceivedSize, status == .success {
                guard bytes.count == 7 else { return malformed("a received size response of \(bytes.count) bytes (7 expected)") }
                return .success(.response(LegacyDFUResponse(request: request, status: status, bytesReceived: UInt32(LittleEndian.value(bytes, at: 3, count: 4)))))
            }
            guard bytes.count == 3 else { return malformed("a response of \(bytes.count) bytes (3 expected)") }
            return .success(.response(LegacyDFUResponse(request: request, status: status)))
        default:
            return malformed("not a response or receipt notification")
        }
    }

    public var description: String {
        switch self {
        case .response(let response): "\(response)"
        case .receipt(let count): "packet receipt notification (\(count) bytes received)"
        }
    }
}

/// A response `[0x10, op, status]` to a control point request.
public struct LegacyDFUResponse: Sendable, Hashable, CustomStringConvertible {
    /// The request answered.
    public var request: LegacyDFUOpCode
    /// Its status.
    public var status: LegacyDFUStatus
    /// The bytes received, in a successful answer to ``LegacyDFUOpCode/reportReceivedSize``.
    public var bytesReceived: UInt32?

    /// Creates a response.
    public init(request: LegacyDFUOpCode, status: LegacyDFUStatus = .success, bytesReceived: UInt32? = nil) {
        self.request = request
        self.status = status
        self.bytesReceived = bytesReceived
    }

    public var description: String { "\(request): \(status)" }
}
