/// A JSON value (RFC 8259) whose objects keep their members in order: what smpctl writes
/// (`--json` documents, caches) and what it reads (`raw --payload-json`, an NCS `manifest.json`).
///
/// Integers are kept exact: a literal without fraction or exponent is ``int(_:)`` when it fits
/// in `Int64`, else ``uint(_:)``; any other number is ``double(_:)``. Two values are equal
/// when they serialize to the same text.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.serialized() == rhs.serialized() }

    /// The first member named `key`, for objects; nil for other values.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The kind of value with its article ("a string", "an object"), for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .uint, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Compact JSON text; object members keep their order. A non-finite double, which JSON
    /// cannot express, is written as `null`.
    public func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    /// `text` in double quotes with JSON's escapes (`\"`, `\\`, `\n`, `\r`, `\t`, `\u00XX` for
    /// the other control characters); everything else is kept as it is.
    public static func quoted(_ text: String) -> String {
        let hexDigits = Array("0123456789abcdef")
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u00" + String([hexDigits[Int(scalar.value >> 4)], hexDigits[Int(scalar.value & 0x0F)]])
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .uint(let u): out += String(u)
        case .double(let d): out += d.isFinite ? (d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) + ".0" : "\(d)") : "null"
        case .string(let s): out += Self.quoted(s)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                out += Self.quoted(key)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }
}
