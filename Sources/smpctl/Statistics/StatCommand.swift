import ArgumentParser
import SMP

/// `smpctl stat …`: the statistics group (2).
struct StatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stat",
        abstract: "Statistics group: list the device's statistics groups, show their counters, watch them change.",
        subcommands: [StatListCommand.self, StatShowCommand.self, StatAllCommand.self]
    )
}
