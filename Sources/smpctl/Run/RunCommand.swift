import ArgumentParser
import SMP

/// `smpctl run …`: Mynewt's run-time test group (7).
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run group (Mynewt): list the device's test suites and start them.",
        subcommands: [RunListCommand.self, RunTestCommand.self])
}

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

/// `smpctl run test [NAME|all] [--token T]`
struct RunTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test", abstract: "Start a test suite, or all of them; the device reports the results in its log.")

    @Argument(help: ArgumentHelp("The suite to run (see `smpctl run list`), or all.", valueName: "name"))
    var name: String = "all"

    @Option(help: ArgumentHelp("A token the device tags its results with.", valueName: "token"))
    var token: String?

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            try await client.send(RunTest(testName: name, token: token))
            output.emit(
                .object([("started", .string(name)), ("token", token.map(JSONValue.string) ?? .null)]),
                human: name == "all" ? "started all test suites" : "started test suite \(name)")
        }
    }
}
