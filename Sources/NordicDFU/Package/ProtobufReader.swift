/// A bounded reader of the protobuf wire format (varints, fixed 32/64-bit values, length-delimited
/// fields) over one message inside a byte array, for the Secure DFU init packet.
///
/// Why our own reader rather than swift-protobuf: the init packet's signature covers the exact
/// serialized bytes of the embedded `InitCommand` as the packaging tool wrote them. A library that
/// decodes into messages and serializes them again cannot promise the same bytes (field order,
/// packed or unpacked repeated fields, unknown fields, non-minimal varints all may change), so
/// the verified bytes would not be the bytes the bootloader checks. This reader hands out byte
/// ranges of the original array instead, and needs no generated code.
///
/// Bounds: every length is checked against the bytes left before anything is read or allocated;
/// a varint is at most 10 bytes and 64 bits; offsets in errors are positions in the whole array.
/// Nesting is bounded by the schema, not by the input: callers descend only into the fields
/// `dfu-cc.proto` declares as messages, and every other field is skipped by its wire type
/// without being looked into.
struct ProtobufReader {
    /// The wire types protobuf has (the deprecated groups, 3 and 4, are refused).
    enum WireType: Int {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    /// One field: its number, wire type, where its tag starts, and its value.
    struct Field {
        var number: UInt64
        var wireType: WireType
        /// The offset of the field's tag in the whole array.
        var offset: Int
        /// A varint's value, or a fixed-size value widened to 64 bits; 0 for a length-delimited field.
        var scalar: UInt64
        /// Where a length-delimited field's content lies in the whole array; empty for other wire types.
        var content: Range<Int>
    }

    /// The whole array the message lies in.
    let bytes: [UInt8]
    /// The offset of the next byte to read.
    private(set) var position: Int
    /// The offset just past the message.
    let end: Int

    /// A reader of the message in `range` of `bytes`.
    init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    /// A reader of the length-delimited `field`'s content, as an embedded message.
    func message(in field: Field) -> ProtobufReader { ProtobufReader(bytes, range: field.content) }

    /// The next field, or nil at the end of the message.
    mutating func next() throws(InitPacketError) -> Field? {
        guard position < end else { return nil }
        let offset = position
        let tag = try readVarint()
        let number = tag >> 3
        guard number >= 1, number <= 0x1FFF_FFFF else { throw .invalidFieldNumber(offset: offset, number: number) }
        guard let wireType = WireType(rawValue: Int(tag & 7)) else {
            throw .invalidWireType(offset: offset, field: number, wireType: Int(tag & 7))
        }
        var field = Field(number: number, wireType: wireType, offset: offset, scalar: 0, content: position..<position)
        switch wireType {
        case .varint:
            field.scalar = try readVarint()
        case .fixed64:
            field.scalar = try readLittleEndian(count: 8)
        case .fixed32:
            field.scalar = try readLittleEndian(count: 4)
        case .lengthDelimited:
            let lengthOffset = position
            let length = try readVarint()
            guard length <= UInt64(end - position) else {
                throw .lengthPastEnd(offset: lengthOffset, length: length, available: end - position)
            }
            field.content = position..<(position + Int(length))
            position += Int(length)
        }
        return field
    }

    /// The varints packed in a length-delimited field's content (a packed repeated field).
    func packedVarints(in field: Field) throws(InitPacketError) -> [(offset: Int, value: UInt64)] {
        var reader = message(in: field)
        var values: [(offset: Int, value: UInt64)] = []
        while reader.position < reader.end {
            let offset = reader.position
            values.append((offset, try reader.readVarint()))
        }
        return values
    }

    private mutating func readVarint() throws(InitPacketError) -> UInt64 {
        let start = position
        var value: UInt64 = 0
        for index in 0..<10 {
            guard position < end else { throw .truncated(offset: start, needed: index + 1, available: index) }
            let byte = bytes[position]
            position += 1
            // The tenth byte holds bit 63 alone: anything more overflows 64 bits.
            guard index < 9 || byte <= 1 else { throw .varintOverflow(offset: start) }
            value |= UInt64(byte & 0x7F) << (7 * UInt64(index))
            if byte & 0x80 == 0 { return value }
        }
        throw .varintOverflow(offset: start)
    }

    private mutating func readLittleEndian(count: Int) throws(InitPacketError) -> UInt64 {
        guard end - position >= count else { throw .truncated(offset: position, needed: count, available: end - position) }
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(bytes[position + index]) << (8 * UInt64(index)) }
        position += count
        return value
    }
}

extension ProtobufReader.Field {
    /// The value of a `uint32` field of `message` named `name`.
    func uint32(_ message: String, _ name: String) throws(InitPacketError) -> UInt32 {
        try expect(.varint, message, name)
        guard let value = UInt32(exactly: scalar) else { throw .valueOutOfRange(offset: offset, message: message, field: name, value: scalar) }
        return value
    }

    /// The value of a `bool` field.
    func bool(_ message: String, _ name: String) throws(InitPacketError) -> Bool {
        try expect(.varint, message, name)
        guard scalar <= 1 else { throw .valueOutOfRange(offset: offset, message: message, field: name, value: scalar) }
        return scalar == 1
    }

    /// The value of an enumeration field, which must be one `dfu-cc.proto` declares.
    func enumeration<Value: RawRepresentable<Int>>(_ message: String, _ name: String, as _: Value.Type = Value.self) throws(InitPacketError) -> Value {
        try expect(.varint, message, name)
        guard let raw = Int(exactly: scalar), let value = Value(rawValue: raw) else {
            throw .unknownEnumValue(message: message, field: name, value: scalar)
        }
        return value
    }

    /// Refuses a wire type other than `wireType`.
    func expect(_ wireType: ProtobufReader.WireType, _ message: String, _ name: String) throws(InitPacketError) {
        guard self.wireType == wireType else {
            throw .unexpectedWireType(offset: offset, message: message, field: name, wireType: self.wireType.rawValue)
        }
    }
}

/// The fields of one message seen so far, to refuse a second occurrence of a non-repeated field:
/// protobuf would merge or overwrite it, and the init packet would then not mean what its bytes
/// appear to say.
struct ProtobufFieldsSeen {
    /// The message's name in `dfu-cc.proto`, for errors.
    let message: String
    private var numbers: Set<UInt64> = []

    init(_ message: String) { self.message = message }

    /// Records `field` as `name`; throws if it was seen before.
    mutating func first(_ field: ProtobufReader.Field, _ name: String) throws(InitPacketError) {
        guard numbers.insert(field.number).inserted else {
            throw .duplicateField(offset: field.offset, message: message, field: name)
        }
    }
}
