/// Why an init packet (the `.dat` file of a Nordic DFU package) could not be decoded. Every case
/// names the byte offset in the init packet where the problem is, and ``description`` says what
/// to do.
public enum InitPacketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes end inside a value (a varint, a length-delimited field, a fixed-size value).
    case truncated(offset: Int, needed: Int, available: Int)
    /// A varint runs past 10 bytes or past 64 bits.
    case varintOverflow(offset: Int)
    /// A field number of 0 or past 2^29 − 1.
    case invalidFieldNumber(offset: Int, number: UInt64)
    /// A wire type this reader does not accept (3 and 4 are deprecated groups; 6 and 7 do not exist).
    case invalidWireType(offset: Int, field: UInt64, wireType: Int)
    /// A known field arrives with a wire type its declaration does not allow.
    case unexpectedWireType(offset: Int, message: String, field: String, wireType: Int)
    /// A length-delimited field claims more bytes than the message holds.
    case lengthPastEnd(offset: Int, length: UInt64, available: Int)
    /// A value does not fit its declared type (a `uint32` above 2^32 − 1, a `bool` above 1).
    case valueOutOfRange(offset: Int, message: String, field: String, value: UInt64)
    /// A field that may appear once appears again.
    case duplicateField(offset: Int, message: String, field: String)
    /// The init packet is larger than any bootloader accepts.
    case tooLarge(size: Int, limit: Int)
    /// A required field is missing.
    case missingField(message: String, field: String)
    /// An enumeration value the schema does not declare.
    case unknownEnumValue(message: String, field: String, value: UInt64)
    /// The packet holds neither `command` nor `signed_command`, or the command is not an init command.
    case notAnInitCommand(String)
    /// A legacy init packet's layout does not match any of the known variants.
    case malformedLegacyPacket(offset: Int, problem: String)

    public var description: String {
        let damaged = "the init packet (.dat) is damaged or not a Nordic DFU init packet"
        switch self {
        case let .truncated(offset, needed, available):
            return "byte \(offset): \(needed) more bytes needed, \(available) left; \(damaged)"
        case .varintOverflow(let offset):
            return "byte \(offset): a varint longer than 64 bits; \(damaged)"
        case let .invalidFieldNumber(offset, number):
            return "byte \(offset): field number \(number) is not valid protobuf; \(damaged)"
        case let .invalidWireType(offset, field, wireType):
            return "byte \(offset): field \(field) has wire type \(wireType), which protobuf does not allow; \(damaged)"
        case let .unexpectedWireType(offset, message, field, wireType):
            return "byte \(offset): \(message).\(field) has wire type \(wireType), not the one dfu-cc.proto declares; \(damaged)"
        case let .lengthPastEnd(offset, length, available):
            return "byte \(offset): a field of \(length) bytes where only \(available) are left; \(damaged)"
        case let .valueOutOfRange(offset, message, field, value):
            return "byte \(offset): \(message).\(field) = \(value) does not fit its type; \(damaged)"
        case let .duplicateField(offset, message, field):
            return "byte \(offset): \(message).\(field) appears a second time; \(damaged)"
        case let .tooLarge(size, limit):
            return "\(size) bytes, more than the \(limit) any nRF5 SDK bootloader accepts; this is not an init packet"
        case let .missingField(message, field):
            return "\(message).\(field) is required but missing; the package was not made by nrfutil or is damaged"
        case let .unknownEnumValue(message, field, value):
            return "\(message).\(field) = \(value) is not a value dfu-cc.proto declares; the package needs a newer tool or is damaged"
        case .notAnInitCommand(let problem):
            return "\(problem); a Secure DFU init packet holds an init command (op_code INIT)"
        case let .malformedLegacyPacket(offset, problem):
            return "byte \(offset): \(problem); the legacy init packet (.dat) is damaged"
        }
    }
}
