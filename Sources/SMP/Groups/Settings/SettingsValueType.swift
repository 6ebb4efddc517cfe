/// How a setting's bytes are read and written as text. The device stores bytes only; the client
/// must know the encoding (docs/protocol/groups.md §6). Integers are little-endian, as Zephyr stores them.
public enum SettingsValueType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// UTF-8 text.
    case string
    /// Raw bytes as hex digits (`01ab` or `01:ab`).
    case hex
    /// Unsigned integers of 1, 2, 4 and 8 bytes.
    case u8, u16, u32, u64
    /// Signed (two's complement) integers of 1, 2, 4 and 8 bytes.
    case i8, i16, i32, i64

    public var description: String { rawValue }

    /// The integer types, in order.
    public static let integers: [SettingsValueType] = [.u8, .u16, .u32, .u64, .i8, .i16, .i32, .i64]

    /// The byte width of an integer type; nil for string and hex.
    public var width: Int? {
        switch self {
        case .string, .hex: return nil
        case .u8, .i8: return 1
        case .u16, .i16: return 2
        case .u32, .i32: return 4
        case .u64, .i64: return 8
        }
    }

    /// Whether this is a signed integer type.
    public var isSigned: Bool { [.i8, .i16, .i32, .i64].contains(self) }

    /// The bytes for `text` in this encoding; throws when it is not valid or out of range.
    public func encode(_ text: String) throws(SettingsValueError) -> [UInt8] {
        switch self {
        case .string:
            return Array(text.utf8)
        case .hex:
            guard let bytes = Hex.bytes(text) else { throw .invalidHex(text) }
            return bytes
        default:
            return try encodeInteger(text)
        }
    }

    /// `bytes` as text in this encoding; nil when an integer type's width differs from the
    /// byte count, or a string is not valid UTF-8.
    public func decode(_ bytes: [UInt8]) -> String? {
        switch self {
        case .string:
            return String(validating: bytes, as: UTF8.self)
        case .hex:
            return Hex.string(bytes)
        default:
            guard let width, bytes.count == width else { return nil }
            let raw = bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard isSigned else { return String(raw) }
            let shift = UInt64(64 - width * 8)
            return String(Int64(bitPattern: raw << shift) >> Int64(shift))
        }
    }

    /// The default text form of a value: the string when the bytes are printable UTF-8, else hex.
    public static func display(_ bytes: [UInt8]) -> (type: SettingsValueType, text: String) {
        if let text = printableText(bytes) { return (.string, text) }
        return (.hex, Hex.string(bytes))
    }

    /// The bytes as text if they are valid UTF-8 without control characters (tabs and newlines
    /// allowed) and not empty.
    public static func printableText(_ bytes: [UInt8]) -> String? {
        guard !bytes.isEmpty, let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let printable = text.unicodeScalars.allSatisfy { scalar in
            scalar == "\t" || scalar == "\n" || !(scalar.properties.generalCategory == .control)
        }
        return printable ? text : nil
    }

    private func encodeInteger(_ text: String) throws(SettingsValueError) -> [UInt8] {
        guard let width else { throw .invalidInteger(text, self) }
        let bits = width * 8
        let raw: UInt64
        if isSigned {
            guard let value = Int64(text) else { throw .invalidInteger(text, self) }
            let lower = bits == 64 ? Int64.min : -(Int64(1) << (bits - 1))
            let upper = bits == 64 ? Int64.max : (Int64(1) << (bits - 1)) - 1
            guard (lower...upper).contains(value) else { throw .outOfRange(text, self, "\(lower)…\(upper)") }
            raw = UInt64(bitPattern: value)
        } else {
            guard let value = UInt64(text) else {
                if Int64(text) != nil { throw .outOfRange(text, self, "0…\(Self.unsignedMaximum(bits))") }
                throw .invalidInteger(text, self)
            }
            guard value <= Self.unsignedMaximum(bits) else { throw .outOfRange(text, self, "0…\(Self.unsignedMaximum(bits))") }
            raw = value
        }
        return (0..<width).map { UInt8(truncatingIfNeeded: raw >> UInt64($0 * 8)) }
    }

    private static func unsignedMaximum(_ bits: Int) -> UInt64 {
        bits == 64 ? UInt64.max : (UInt64(1) << UInt64(bits)) - 1
    }
}

/// A setting value given as text that does not fit its type.
public enum SettingsValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not hex digits.
    case invalidHex(String)
    /// Not a decimal integer.
    case invalidInteger(String, SettingsValueType)
    /// An integer outside the type's range (given as text).
    case outOfRange(String, SettingsValueType, String)

    public var description: String {
        switch self {
        case .invalidHex(let text):
            return "\"\(text)\" is not hex bytes; give pairs of hex digits such as 01ab or 01:ab"
        case .invalidInteger(let text, let type):
            return "\"\(text)\" is not a decimal integer of type \(type)"
        case .outOfRange(let text, let type, let range):
            return "\(text) does not fit in \(type) (\(range)); pick a wider type or a smaller value"
        }
    }
}
