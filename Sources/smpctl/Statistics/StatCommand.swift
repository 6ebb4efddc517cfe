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

/// `smpctl stat show NAME...`
struct StatShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show the counters of one or more statistics groups.",
        discussion: "With --watch SECONDS the counters are read again and redrawn, with the change since the last draw and the rate per second; Ctrl-C ends.")

    @Argument(help: ArgumentHelp("Statistics group names (see `smpctl stat list`).", valueName: "name"))
    var names: [String]

    @OptionGroup var watch: StatWatchOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if names.isEmpty { throw ValidationError("give at least one statistics group name (see `smpctl stat list`)") }
    }

    func run() async throws {
        try await global.withClient { client, output in
            try await StatisticsWatch(names: names, options: watch, output: output).run(client)
        }
    }
}

/// `smpctl stat all`
struct StatAllCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "all", abstract: "Show the counters of every statistics group (reads the list, then each group).")

    @OptionGroup var watch: StatWatchOptions

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let names = try await client.send(StatisticsList())
            try await StatisticsWatch(names: names, options: watch, output: output).run(client)
        }
    }
}
