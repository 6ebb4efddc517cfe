import ArgumentParser
import SMP

/// `smpctl log modules`
struct LogModulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "modules", abstract: "List the log modules (name and number).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let modules = try await client.send(LogModuleList())
            output.emit(LogNamedID.json(modules, key: "modules"), human: LogNamedID.table(modules, header: "MODULE"))
        }
    }
}
