import ArgumentParser
import SMP

/// `smpctl log levels`
struct LogLevelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "levels", abstract: "List the log levels (name and number).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let levels = try await client.send(LogLevelList())
            output.emit(LogNamedID.json(levels, key: "levels"), human: LogNamedID.table(levels, header: "LEVEL"))
        }
    }
}
