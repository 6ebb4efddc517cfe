/// One D-Bus value, as sent in a method call or decoded from a reply or signal.
///
/// Containers carry the signatures of their elements so that empty ones can be encoded.
/// A decoded ``fd(_:)`` is a descriptor the receiver owns and must close.
public indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// A UNIX file descriptor (`h`).
    case fd(Int32)
    /// A byte array (`ay`), kept apart from ``array(_:elementSignature:)`` for speed.
    case bytes([UInt8])
    /// An array of values of one type.
    case array([DBusValue], elementSignature: String)
    /// A dictionary (`a{kv}`), in wire order.
    case dict([DBusDictEntry], keySignature: String, valueSignature: String)
    /// A value of any type (`v`).
    case variant(DBusValue)
    /// A structure (`(…)`).
    case `struct`([DBusValue])

    /// The value's D-Bus type signature.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .fd: "h"
        case .bytes: "ay"
        case .array(_, let element): "a" + element
        case .dict(_, let key, let value): "a{" + key + value + "}"
        case .variant: "v"
        case .struct(let fields): "(" + fields.map(\.signature).joined() + ")"
        }
    }

    /// A string-keyed dictionary of variants (`a{sv}`), the shape of D-Bus property maps and options.
    public static func properties(_ members: [(String, DBusValue)]) -> DBusValue {
        .dict(members.map { DBusDictEntry(key: .string($0.0), value: .variant($0.1)) }, keySignature: "s", valueSignature: "v")
    }

    /// An array of strings (`as`).
    public static func strings(_ items: [String]) -> DBusValue {
        .array(items.map(DBusValue.string), elementSignature: "s")
    }

    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The text of a string or object path.
    public var stringValue: String? {
        switch unwrapped {
        case .string(let text), .objectPath(let text): text
        default: nil
        }
    }

    /// A boolean.
    public var boolValue: Bool? {
        if case .bool(let flag) = unwrapped { return flag }
        return nil
    }

    /// Any integer type, widened.
    public var integerValue: Int64? {
        switch unwrapped {
        case .byte(let value): Int64(value)
        case .int16(let value): Int64(value)
        case .uint16(let value): Int64(value)
        case .int32(let value): Int64(value)
        case .uint32(let value): Int64(value)
        case .int64(let value): value
        case .uint64(let value): value <= UInt64(Int64.max) ? Int64(value) : nil
        default: nil
        }
    }

    /// The bytes of an `ay`.
    public var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = unwrapped { return bytes }
        return nil
    }

    /// The strings of an `as` (or `ao`).
    public var stringArray: [String]? {
        guard case .array(let items, _) = unwrapped else { return nil }
        let texts = items.compactMap(\.stringValue)
        return texts.count == items.count ? texts : nil
    }

    /// A string-keyed dictionary (`a{s…}` / `a{o…}`) as a Swift dictionary; later duplicates win.
    public var dictionaryValue: [String: DBusValue]? {
        guard case .dict(let entries, _, _) = unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.stringValue else { return nil }
            result[key] = entry.value
        }
        return result
    }
}

/// One entry of a ``DBusValue/dict(_:keySignature:valueSignature:)``.
public struct DBusDictEntry: Sendable, Hashable {
    /// The key, a basic type.
    public var key: DBusValue
    /// The value.
    public var value: DBusValue

    /// Creates an entry.
    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}
