import ArgumentParser
import SMP

/// `smpctl settings delete NAME`
struct SettingsDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a setting (also from storage).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The setting's full name.")
    var name: String

    func run() async throws {
        try await global.withClient { client, output in
            try await client.send(SettingsDelete(name))
            output.emit(.object([("deleted", .string(name))]), human: "deleted \(name)")
        }
    }
}
