/// A CBOR data item (RFC 8949).
///
/// The model keeps every well-formed item except for its serialization details: the split of
/// indefinite-length strings into chunks (the decoder joins them; the ``CBORWriter`` can still
/// produce them), indefinite versus definite lengths, non-shortest heads, the width a float was
/// sent in, and NaN payloads. Equality (see ``==(_:_:)``) is therefore equality of the
/// shortest-form encoding.
/// Maps keep their entries in order and may hold duplicate keys, because some devices send them
/// (Zephyr's task statistics with priority-named threads).
public indirect enum CBOR: Sendable, Hashable {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// Major type 1: a negative integer whose value is `-1 - n`.
    case negative(UInt64)
    /// Major type 2: a byte string.
    case bytes([UInt8])
    /// Major type 3: a UTF-8 text string.
    case text(String)
    /// Major type 4: an array.
    case array([CBOR])
    /// Major type 5: a map, entries in wire order.
    case map(CBORMap)
    /// Major type 6: a tagged item.
    case tagged(UInt64, CBOR)
    /// Major type 7: `false` or `true`.
    case bool(Bool)
    /// Major type 7: `null`.
    case null
    /// Major type 7: `undefined`.
    case undefined
    /// Major type 7: a simple value other than false, true, null and undefined (0–19, 32–255).
    ///
    /// 20–23 are the same items as `false`, `true`, `null` and `undefined` (they compare equal
    /// and are encoded the same, but decode as those cases). 24–31 do not exist: encoding them
    /// is a programming error that stops the program.
    case simple(UInt8)
    /// Major type 7: a floating-point number; the encoder picks the shortest exact width.
    case float(Double)

    /// An integer, choosing major type 0 or 1 by sign.
    public static func int(_ value: Int64) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// An integer of any fixed-width type, choosing major type 0 or 1 by sign.
    ///
    /// The value must lie in -2^64 … 2^64-1, the range of major types 0 and 1 (always true for
    /// the standard types up to 64 bits; a wider value outside it stops the program).
    public static func integer<T: BinaryInteger>(_ value: T) -> CBOR {
        if value >= 0 {
            return .unsigned(UInt64(value))
        }
        // -1 - value cannot overflow for a negative value of a signed type.
        return .negative(UInt64(-1 - value))
    }
}

extension CBOR {
    /// The integer value when it fits in `Int64`.
    public var int64Value: Int64? {
        switch self {
        case .unsigned(let n): return n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): return n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: return nil
        }
    }

    /// The integer value when it fits in `Int`.
    public var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }

    /// The value of a non-negative integer.
    public var uint64Value: UInt64? {
        if case .unsigned(let n) = self { return n }
        return nil
    }

    /// The text of a text string.
    public var stringValue: String? {
        if case .text(let s) = self { return s }
        return nil
    }

    /// The bytes of a byte string.
    public var bytesValue: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }

    /// The value of `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The value of a float, or of an integer converted to `Double`.
    public var doubleValue: Double? {
        switch self {
        case .float(let d): return d
        case .unsigned(let n): return Double(n)
        case .negative(let n): return -1 - Double(n)
        default: return nil
        }
    }

    /// The elements of an array.
    public var arrayValue: [CBOR]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The entries of a map.
    public var mapValue: CBORMap? {
        if case .map(let m) = self { return m }
        return nil
    }

    /// The value for a text key when this is a map (the first entry with that key).
    public subscript(key: String) -> CBOR? {
        mapValue?[key]
    }

    /// A short name of the item's type, for error messages ("map", "text string", …).
    public var typeName: String {
        switch self {
        case .unsigned, .negative: return "integer"
        case .bytes: return "byte string"
        case .text: return "text string"
        case .array: return "array"
        case .map: return "map"
        case .tagged: return "tagged item"
        case .bool: return "boolean"
        case .null: return "null"
        case .undefined: return "undefined"
        case .simple: return "simple value"
        case .float: return "float"
        }
    }
}
