import ArgumentParser
import SMP

/// `smpctl log list`
struct LogListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the device's logs.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let names = try await client.send(LogList())
            output.emit(.object([("logs", .array(names.map(JSONValue.string)))]), human: names.isEmpty ? "no logs" : names.joined(separator: "\n"))
        }
    }
}

/// `smpctl log modules`
struct LogModulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "modules", abstract: "List the log modules (name and number).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let modules = try await client.send(LogModuleList())
            output.emit(LogNamedID.json(modules, key: "modules"), human: LogNamedID.table(modules, header: "MODULE"))
        }
    }
}

/// `smpctl log levels`
struct LogLevelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "levels", abstract: "List the log levels (name and number).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let levels = try await client.send(LogLevelList())
            output.emit(LogNamedID.json(levels, key: "levels"), human: LogNamedID.table(levels, header: "LEVEL"))
        }
    }
}

extension LogNamedID {
    /// `{key: [{"name", "id"}]}`.
    static func json(_ pairs: [LogNamedID], key: String) -> JSONValue {
        .object([(key, .array(pairs.map { .object([("name", .string($0.name)), ("id", .int($0.id))]) }))])
    }

    /// NAME and ID columns.
    static func table(_ pairs: [LogNamedID], header: String) -> String {
        var table = Table([header, "ID"], alignments: [.left, .right])
        for pair in pairs { table.add([pair.name, String(pair.id)]) }
        return pairs.isEmpty ? "none" : table.rendered
    }
}
