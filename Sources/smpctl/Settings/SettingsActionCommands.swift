import ArgumentParser
import JSON
import SMP

/// `smpctl settings commit`
struct SettingsCommitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "commit", abstract: "Apply the settings written so far.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            try await client.send(SettingsCommit())
            output.emit(.object([("committed", .bool(true))]), human: "committed")
        }
    }
}

/// `smpctl settings load`
struct SettingsLoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load", abstract: "Reload the settings from persistent storage (unsaved writes of saved keys are lost).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            try await client.send(SettingsLoad())
            output.emit(.object([("loaded", .bool(true))]), human: "loaded the settings from storage")
        }
    }
}

/// `smpctl settings save [SUBTREE]`
struct SettingsSaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save", abstract: "Save the settings (all, or one subtree) to persistent storage.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Only this subtree, e.g. bt (default: everything).")
    var subtree: String?

    func run() async throws {
        try await global.withClient { client, output in
            try await client.send(SettingsSave(subtree: subtree))
            output.emit(
                .object([("saved", .bool(true)), ("subtree", subtree.map(JSONValue.string) ?? .null)]),
                human: subtree.map { "saved the \($0) settings" } ?? "saved all settings")
        }
    }
}
