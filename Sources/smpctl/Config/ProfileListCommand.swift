import ArgumentParser
import JSON

/// `smpctl profile list [--json]`
struct ProfileListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the saved profiles and the config file's defaults.")

    @OptionGroup var format: JSONOutputOption

    func run() throws {
        let output = format.output
        try ProfileCommand.reporting(output) {
            let store = try ProfileCommand.store()
            let file = try store.load()
            let profiles = file.profileNames.map { name in
                JSONValue.object([("name", .string(name)), ("settings", ProfileCommand.json(file.profiles[name] ?? ConfigSettings()))])
            }
            output.emit(
                .object([("file", .string(store.path)), ("defaults", ProfileCommand.json(file.defaults)), ("profiles", .array(profiles))]),
                human: text(file, store: store))
        }
    }

    private func text(_ file: ConfigFile, store: ConfigStore) -> String {
        guard !file.profiles.isEmpty || !file.defaults.isEmpty else {
            return "no profiles in \(store.path)\(store.exists ? "" : " (no such file yet)"); add one with: smpctl profile add NAME -c CONNECTION"
        }
        var table = Table(["NAME", "CONNECTION", "SETTINGS"])
        for name in file.profileNames {
            let settings = file.profiles[name] ?? ConfigSettings()
            table.add([name, settings.connection ?? "-", ProfileCommand.summary(settings)])
        }
        var lines = [table.rendered]
        if !file.defaults.isEmpty {
            lines.append("defaults: " + ([file.defaults.connection].compactMap { $0 } + [ProfileCommand.summary(file.defaults)]).joined(separator: " "))
        }
        lines.append("(\(store.path))")
        return lines.joined(separator: "\n")
    }
}
