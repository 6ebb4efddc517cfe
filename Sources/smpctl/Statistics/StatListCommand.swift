import ArgumentParser
import JSON
import SMP

/// `smpctl stat list`
struct StatListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the device's statistics groups.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let names = try await client.send(StatisticsList())
            output.emit(
                .object([("groups", .array(names.map(JSONValue.string)))]),
                human: names.isEmpty ? "no statistics groups" : names.joined(separator: "\n"))
        }
    }
}
