import ArgumentParser
import SMP

/// `smpctl run …`: Mynewt's run-time test group (7).
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run group (Mynewt): list the device's test suites and start them.",
        subcommands: [RunListCommand.self, RunTestCommand.self])
}
