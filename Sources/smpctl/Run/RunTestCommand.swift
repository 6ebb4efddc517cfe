import ArgumentParser
import JSON
import SMP

/// `smpctl run test [NAME|all] [--token T]`
struct RunTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test", abstract: "Start a test suite, or all of them; the device reports the results in its log.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The suite to run (see `smpctl run list`), or all.", valueName: "name"))
    var name: String = "all"

    @Option(help: ArgumentHelp("A token the device tags its results with.", valueName: "token"))
    var token: String?

    func run() async throws {
        try await global.withClient { client, output in
            try await client.send(RunTest(testName: name, token: token))
            output.emit(
                .object([("started", .string(name)), ("token", token.map(JSONValue.string) ?? .null)]),
                human: name == "all" ? "started all test suites" : "started test suite \(name)")
        }
    }
}
