import CBOR
import JSON
import SMP

extension JSONValue {
    /// A CBOR item as JSON: byte strings become hex strings, tags `{"tag": n, "value": …}`,
    /// non-text map keys their diagnostic notation, undefined and simple values strings.
    init(_ item: CBOR) {
        switch item {
        case .unsigned(let n): self = .uint(n)
        case .negative(let n): self = n <= UInt64(Int64.max) ? .int(-1 - Int64(n)) : .string(item.diagnosticDescription)
        case .bytes(let b): self = .string(Hex.string(b))
        case .text(let s): self = .string(s)
        case .array(let a): self = .array(a.map(JSONValue.init))
        case .map(let m): self = .object(m.map { ($0.key.stringValue ?? $0.key.diagnosticDescription, JSONValue($0.value)) })
        case .tagged(let tag, let content): self = .object([("tag", .uint(tag)), ("value", JSONValue(content))])
        case .bool(let b): self = .bool(b)
        case .null: self = .null
        case .undefined, .simple: self = .string(item.diagnosticDescription)
        case .float(let d): self = .double(d)
        }
    }

    /// JSON as CBOR, for `raw --json`: integers stay integers, objects become text-keyed maps.
    var cbor: CBOR {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .uint(let u): return .unsigned(u)
        case .double(let d): return .float(d)
        case .string(let s): return .text(s)
        case .array(let items): return .array(items.map(\.cbor))
        case .object(let members): return .map(CBORMap(members.map { CBORMap.Entry(key: .text($0.0), value: $0.1.cbor) }))
        }
    }
}
