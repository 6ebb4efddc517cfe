import ArgumentParser
import SMP

/// `smpctl stat all`
struct StatAllCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "all", abstract: "Show the counters of every statistics group (reads the list, then each group).")

    @OptionGroup var global: GlobalOptions

    @OptionGroup var watch: StatWatchOptions

    func run() async throws {
        try await watch.withClient(global) { client, output in
            let names = try await client.send(StatisticsList())
            try await StatisticsWatch(names: names, options: watch, output: output, notesDeviceLimits: true).run(client)
        }
    }
}
