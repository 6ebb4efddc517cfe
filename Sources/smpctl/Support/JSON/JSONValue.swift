import CBOR

/// A JSON value with ordered objects, for stable `--json` output and for parsing `raw --json`.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.serialized() == rhs.serialized() }

    /// The version of the JSON vocabulary (docs/schema/v1/smpctl.schema.json) every document names.
    static let schemaVersion: Int64 = 1

    /// This object as a document: with `"schemaVersion"` first.
    var document: JSONValue {
        guard case .object(let members) = self else { return self }
        return .object([("schemaVersion", .int(Self.schemaVersion))] + members)
    }

    /// One line of standard output: the ``document``, compact, and a newline.
    func documentLine() -> String {
        document.serialized() + "\n"
    }

    /// Compact JSON text; keys keep their order.
    func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .uint(let u): out += String(u)
        case .double(let d): out += d.isFinite ? (d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) + ".0" : "\(d)") : "null"
        case .string(let s): out += jsonQuoted(s)
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
                out += jsonQuoted(key)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }
}
