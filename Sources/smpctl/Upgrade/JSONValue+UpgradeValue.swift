import JSON
import SMPFirmware

extension JSONValue {
    /// An upgrade's value, as `--json` writes it.
    init(_ value: UpgradeValue) {
        switch value {
        case .null: self = .null
        case .bool(let bool): self = .bool(bool)
        case .uint(let number): self = .uint(number)
        case .string(let text): self = .string(text)
        case .array(let items): self = .array(items.map { JSONValue($0) })
        case .object(let fields): self = .object(JSONValue.members(fields))
        }
    }

    /// An upgrade's members, as the members of a JSON object.
    static func members(_ fields: [UpgradeField]) -> [(String, JSONValue)] {
        fields.map { ($0.key, JSONValue($0.value)) }
    }
}
