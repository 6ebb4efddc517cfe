import ArgumentParser
import JSON
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
