import CBOR
import JSON
import Logging

/// How the CLI's log handlers write a record's metadata: in a fixed order (the exchange's figures
/// first, the payload last), CBOR payloads as JSON, numbers as numbers.
enum LogMetadataRendering {
    /// Keys shown first, in this order; the others follow sorted, then `payload`.
    static let leadingKeys = ["op", "seq", "size", "attempt", "rc", "ms", "error"]

    /// The metadata in display order.
    static func ordered(_ metadata: Logger.Metadata) -> [(key: String, value: Logger.MetadataValue)] {
        let leading = leadingKeys.compactMap { key in metadata[key].map { (key: key, value: $0) } }
        let rest = metadata.filter { !leadingKeys.contains($0.key) && $0.key != "payload" }.sorted { $0.key < $1.key }
            .map { (key: $0.key, value: $0.value) }
        return leading + rest + (metadata["payload"].map { [(key: "payload", value: $0)] } ?? [])
    }

    /// `key=value …` for a line on a terminal: strings as they are unless they hold spaces or
    /// quotes (then JSON-quoted), payloads and collections as JSON.
    static func text(_ metadata: Logger.Metadata) -> String {
        ordered(metadata).map { "\($0.key)=\(text($0.value))" }.joined(separator: " ")
    }

    private static func text(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let string):
            return string.contains(where: { $0 == " " || $0 == "\"" || $0.isNewline }) || string.isEmpty
                ? JSONValue.string(string).serialized() : string
        case .stringConvertible(let item):
            return item is CBOR ? json(value).serialized() : item.description
        case .array, .dictionary:
            return json(value).serialized()
        }
    }

    /// A metadata value as JSON: a CBOR payload as its JSON form, integers and floating-point
    /// numbers as numbers, anything else convertible as its description.
    static func json(_ value: Logger.MetadataValue) -> JSONValue {
        switch value {
        case .string(let string):
            return .string(string)
        case .stringConvertible(let item):
            switch item {
            case let cbor as CBOR: return JSONValue(cbor)
            case let number as Int: return .int(Int64(number))
            case let number as Int64: return .int(number)
            case let number as UInt64: return .uint(number)
            case let number as Double: return .double(number)
            default: return .string(item.description)
            }
        case .array(let items):
            return .array(items.map(json))
        case .dictionary(let members):
            return .object(members.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) })
        }
    }
}
