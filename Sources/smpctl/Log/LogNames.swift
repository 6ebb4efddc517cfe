import CBOR
import JSON
import SMP

/// Renders log entries with level and module names from the device's maps.
struct LogNames {
    let levels: [LogNamedID]
    let modules: [LogNamedID]

    func level(_ id: Int64) -> String? { levels.first { $0.id == id }?.name }
    func module(_ id: Int64) -> String? { modules.first { $0.id == id }?.name }

    func text(_ response: LogShow.Response) -> String {
        if response.logs.isEmpty { return "no logs" }
        return response.logs.map { log in
            var table = Table(["INDEX", "TIMESTAMP", "LEVEL", "MODULE", "MESSAGE"], alignments: [.right, .right, .left, .left, .left])
            for entry in log.entries {
                table.add([
                    String(entry.index), String(entry.timestamp), level(entry.level) ?? String(entry.level),
                    module(entry.module) ?? String(entry.module), Self.describe(entry.message),
                ])
            }
            return "log \(log.name): " + (log.entries.isEmpty ? "no entries" : "\(log.entries.count) \(log.entries.count == 1 ? "entry" : "entries")\n" + table.rendered)
        }.joined(separator: "\n\n")
    }

    func json(_ response: LogShow.Response) -> JSONValue {
        .object([
            ("nextIndex", .uint(response.nextIndex)),
            ("logs", .array(response.logs.map { log in
                .object([
                    ("name", .string(log.name)), ("type", .int(log.type)),
                    ("entries", .array(log.entries.map(entryJSON))),
                ])
            })),
        ])
    }

    private func entryJSON(_ entry: LogEntry) -> JSONValue {
        let (type, message): (String, JSONValue) = switch entry.message {
        case .text(let text): ("str", .string(text))
        case .binary(let bytes): ("bin", .string(Hex.string(bytes)))
        case .cbor(let bytes): ("cbor", .string(Hex.string(bytes)))
        }
        var members: [(String, JSONValue)] = [
            ("index", .uint(entry.index)), ("timestamp", .int(entry.timestamp)), ("level", .int(entry.level)),
            ("levelName", level(entry.level).map(JSONValue.string) ?? .null), ("module", .int(entry.module)),
            ("moduleName", module(entry.module).map(JSONValue.string) ?? .null), ("type", .string(type)), ("message", message),
        ]
        if case .cbor(let bytes) = entry.message {
            members.append(("diagnostic", (try? CBORDecoder().decode(bytes)).map { .string($0.diagnosticDescription) } ?? .null))
        }
        if let hash = entry.imageHash { members.append(("imageHash", .string(Hex.string(hash)))) }
        return .object(members)
    }

    /// Text as is; CBOR in diagnostic notation; bytes in hex.
    static func describe(_ message: LogEntry.Message) -> String {
        switch message {
        case .text(let text): return text
        case .binary(let bytes): return "hex " + Hex.string(bytes)
        case .cbor(let bytes):
            guard let item = try? CBORDecoder().decode(bytes) else { return "cbor (undecodable) " + Hex.string(bytes) }
            return "cbor " + item.diagnosticDescription
        }
    }
}
