import ArgumentParser
import JSON
import SMP

/// `smpctl run list`
struct RunListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the device's test suites.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let tests = try await client.send(RunList())
            output.emit(.object([("tests", .array(tests.map(JSONValue.string)))]), human: tests.isEmpty ? "no test suites" : tests.joined(separator: "\n"))
        }
    }
}
