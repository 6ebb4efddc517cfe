import ArgumentParser

/// `smpctl profile remove NAME`
struct ProfileRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a saved profile (the others and the defaults are kept).")

    @Argument(help: ArgumentHelp("The profile (see `smpctl profile list`).", valueName: "name"))
    var name: String

    @OptionGroup var format: JSONOutputOption

    func run() throws {
        let output = format.output
        try ProfileCommand.reporting(output) {
            let store = try ProfileCommand.store()
            try ProfileCommand.rewrite(store) { (file: inout ConfigFile) throws(CLIError) in
                _ = try ProfileCommand.settings(name, in: file, store: store)
                file.profiles[name] = nil
            }
            output.emit(
                .object([("removed", .string(name)), ("file", .string(store.path))]),
                human: "removed profile \(name) from \(store.path)")
        }
    }
}
