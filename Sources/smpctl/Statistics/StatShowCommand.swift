import ArgumentParser
import SMP

/// `smpctl stat show NAME...`
struct StatShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show the counters of one or more statistics groups.",
        discussion: "With --watch SECONDS the counters are read again and redrawn, with the change since the last draw and the rate per second; Ctrl-C ends.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Statistics group names (see `smpctl stat list`).", valueName: "name"))
    var names: [String]

    @OptionGroup var watch: StatWatchOptions

    func validate() throws {
        if names.isEmpty { throw ValidationError("give at least one statistics group name (see `smpctl stat list`)") }
    }

    func run() async throws {
        try await watch.withClient(global) { client, output in
            try await StatisticsWatch(names: names, options: watch, output: output).run(client)
        }
    }
}
