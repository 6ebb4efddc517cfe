import ArgumentParser
import JSON
import SMP

/// `smpctl log clear [NAME]`
struct LogClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clear", abstract: "Clear one log, or all of them.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The log to clear; default all.", valueName: "name"))
    var name: String?

    func run() async throws {
        try await global.withClient { client, output in
            try await client.send(LogClear(logName: name))
            output.emit(
                .object([("cleared", name.map(JSONValue.string) ?? .string("all"))]),
                human: name.map { "cleared log \($0)" } ?? "cleared all logs")
        }
    }
}
