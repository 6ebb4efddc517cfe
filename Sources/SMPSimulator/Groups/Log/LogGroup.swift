import CBOR
import SMP

/// Mynewt's log group (4, docs/protocol/groups.md §7): show, clear, module, level and log lists.
///
/// Entry indexes are global across logs, as Mynewt's are. Show stops adding entries when the
/// response would not fit the device's buffer; `next_index` is then the first index left out.
/// An unknown log name is answered rc 5.
public struct LogGroup: SimulatedGroup {
    public var group: SMPGroup { .log }

    /// The logs, with their entries and indexes.
    public private(set) var logs: [(name: String, type: Int64, entries: [(index: UInt64, entry: SimulatedLogEntry)])]
    /// The index the next entry gets.
    public private(set) var nextIndex: UInt64 = 0
    private let configuration: SimulatedLogConfiguration

    /// Creates the group.
    public init(configuration: SimulatedLogConfiguration) {
        self.configuration = configuration
        logs = []
        for log in configuration.logs {
            var entries: [(index: UInt64, entry: SimulatedLogEntry)] = []
            for entry in log.entries {
                entries.append((nextIndex, entry))
                nextIndex += 1
            }
            logs.append((log.name, log.type, entries))
        }
    }

    public func implements(command: UInt8) -> Bool {
        [LogCommandID.show, LogCommandID.clear, LogCommandID.moduleList, LogCommandID.levelList, LogCommandID.logList]
            .contains(command)
    }

    public mutating func handle(
        _ request: SimulatedRequest, context: inout SimulatedDeviceContext
    ) throws(SimulatedError) -> CBORMap {
        switch (request.command, request.operation) {
        case (LogCommandID.show, .read):
            return try show(request, bufferSize: context.configuration.bufferSize)
        case (LogCommandID.clear, .write):
            for position in try chosenLogs(request) { logs[position].entries.removeAll() }
            return [:]
        case (LogCommandID.moduleList, .read):
            return ["module_map": Self.map(configuration.modules)]
        case (LogCommandID.levelList, .read):
            return ["level_map": Self.map(configuration.levels)]
        case (LogCommandID.logList, .read):
            return ["log_list": .array(logs.map { .text($0.name) })]
        default:
            throw .notSupported
        }
    }

    /// The positions of the log the request names, or of all logs; rc 5 for an unknown name.
    private func chosenLogs(_ request: SimulatedRequest) throws(SimulatedError) -> [Int] {
        guard let name = try request.fields(["log_name": .text]).text("log_name"), !name.isEmpty else {
            return Array(logs.indices)
        }
        guard let position = logs.firstIndex(where: { $0.name == name }) else { throw .returnCode(.noEntry) }
        return [position]
    }

    private func show(_ request: SimulatedRequest, bufferSize: Int) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["index": .unsigned, "ts": .integer])
        let from = fields.unsigned("index") ?? 0
        let since = fields.integer("ts")
        // Room for the header, the "rc" a legacy device adds and the encoding's overhead.
        let room = bufferSize - SMPHeader.size - 16
        var encoded: [CBOR] = []
        var cutAt: UInt64?
        for position in try chosenLogs(request) where cutAt == nil {
            let log = logs[position]
            var entries: [CBOR] = []
            for (index, entry) in log.entries where index >= from && since.map({ entry.timestamp > $0 }) ?? true {
                let candidate = entries + [Self.encode(entry, index: index)]
                let size = Self.response(encoded + [Self.encode(log: log.name, type: log.type, entries: candidate)], next: index)
                    .encoded().count
                guard size <= room else {
                    cutAt = index
                    break
                }
                entries = candidate
            }
            encoded.append(Self.encode(log: log.name, type: log.type, entries: entries))
        }
        return Self.response(encoded, next: cutAt ?? nextIndex).mapValue ?? [:]
    }

    private static func response(_ logs: [CBOR], next: UInt64) -> CBOR {
        .map(["next_index": .unsigned(next), "logs": .array(logs)])
    }

    private static func encode(log name: String, type: Int64, entries: [CBOR]) -> CBOR {
        .map(["name": .text(name), "type": .int(type), "entries": .array(entries)])
    }

    private static func encode(_ entry: SimulatedLogEntry, index: UInt64) -> CBOR {
        let (message, type): (CBOR, String) = switch entry.message {
        case .text(let text): (.text(text), "str")
        case .cbor(let bytes): (.bytes(bytes), "cbor")
        case .binary(let bytes): (.bytes(bytes), "bin")
        }
        return .map([
            "msg": message, "ts": .int(entry.timestamp), "level": .int(entry.level), "index": .unsigned(index),
            "module": .int(entry.module), "type": .text(type),
        ])
    }

    private static func map(_ pairs: [LogNamedID]) -> CBOR {
        var map = CBORMap()
        for pair in pairs { map.append(key: .text(pair.name), value: .int(pair.id)) }
        return .map(map)
    }
}
