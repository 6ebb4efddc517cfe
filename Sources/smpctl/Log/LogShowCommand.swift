import ArgumentParser
import SMP

/// `smpctl log show [NAME] [--index N] [--since TS] [--limit N]`
struct LogShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show log entries: timestamp, level, module and message.",
        discussion: "Reads everything: when the device's buffer cuts the answer, smpctl asks again from where it stopped.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The log to show (see `smpctl log list`); default all.", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("Only entries from this index on.", valueName: "index"))
    var index: UInt64?

    @Option(help: ArgumentHelp("Only entries newer than this timestamp (the device's units, usually microseconds).", valueName: "timestamp"))
    var since: Int64?

    @Option(help: ArgumentHelp("At most this many entries.", valueName: "count"))
    var limit: Int?

    func validate() throws {
        try NumericRange.limit.check(limit)
    }

    func run() async throws {
        try await global.withClient { client, output in
            let response = try await client.readLog(LogShow(logName: name, index: index, timestamp: since), limit: limit)
            // The maps only make the output friendlier: a device without them still shows numbers.
            let levels = (try? await client.send(LogLevelList())) ?? []
            let modules = (try? await client.send(LogModuleList())) ?? []
            let names = LogNames(levels: levels, modules: modules)
            output.emit(names.json(response), human: names.text(response))
        }
    }
}
