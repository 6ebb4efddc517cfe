import SMP

/// A request header as a server reads it: every operation value is kept (`SMPHeader` rejects
/// 4–7, which a server must answer), and so are the version bits.
struct RequestHeader: Sendable, Hashable {
    var operationBits: UInt8
    var versionBits: UInt8
    var length: Int
    var group: SMPGroup
    var sequence: UInt8
    var command: UInt8

    /// Reads the 8 bytes at `offset`; nil when fewer remain.
    init?(_ bytes: [UInt8], at offset: Int) {
        guard bytes.count - offset >= SMPHeader.size else { return nil }
        operationBits = bytes[offset] & 0x07
        versionBits = (bytes[offset] >> 3) & 0x03
        length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        group = SMPGroup(rawValue: UInt16(bytes[offset + 4]) << 8 | UInt16(bytes[offset + 5]))
        sequence = bytes[offset + 6]
        command = bytes[offset + 7]
    }

    /// The request operation, when it is read or write.
    var requestOperation: SMPOperation? {
        switch operationBits {
        case SMPOperation.read.rawValue: return .read
        case SMPOperation.write.rawValue: return .write
        default: return nil
        }
    }

    /// Zephyr's `smp_rsp_op()`: read → read response, anything else → write response.
    var responseOperation: SMPOperation {
        operationBits == SMPOperation.read.rawValue ? .readResponse : .writeResponse
    }
}
