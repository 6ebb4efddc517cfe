import ArgumentParser
import FoundationEssentials
import JSON

/// `smpctl profile add|list|show|remove`: saved connections and their settings in the config file.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Save connections and their settings as named profiles; use one with -p NAME.",
        discussion: """
            Profiles live in the config file: $SMPCTL_CONFIG, else $XDG_CONFIG_HOME/smpctl/config.yaml, \
            else ~/.config/smpctl/config.yaml. `smpctl -p lab os info` then reaches the device \
            profile "lab" names, with its timeout, retries, link options and upload window; options \
            on the command line still win (docs/configuration.md).
            Example: smpctl profile add lab -c serial:/dev/ttyACM0 --baud 1000000 --window 8
            """,
        subcommands: [ProfileAddCommand.self, ProfileListCommand.self, ProfileShowCommand.self, ProfileRemoveCommand.self]
    )

    /// The config file, or an error saying how to name one.
    static func store() throws(CLIError) -> ConfigStore {
        guard let store = ConfigStore.standard() else {
            throw CLIError(.usage, "no place for the config file: none of SMPCTL_CONFIG, XDG_CONFIG_HOME and HOME is set", hint: "set SMPCTL_CONFIG=FILE")
        }
        return store
    }

    /// Changes the config file under its lock (``ConfigStore/update(_:)``): `change` sees the
    /// file as it is and may throw to leave it alone. Notes when the rewrite drops the file's comments.
    static func rewrite(_ store: ConfigStore, _ change: (inout ConfigFile) throws(CLIError) -> Void) throws(CLIError) {
        let hadComments = try store.update { (file: inout ConfigFile) throws(CLIError) -> Bool in
            try change(&file)
            return store.hasComments
        }
        if hadComments { Output.status("note: \(store.path) was rewritten; its comments are not kept") }
    }

    /// Runs `body`; a failure is reported (as a JSON document too with `--json`) and becomes the exit status.
    static func reporting(_ output: Output, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            let failure = CLIError(error)
            output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
    }

    /// `name` in `file`, or an error that lists the profiles there.
    static func settings(_ name: String, in file: ConfigFile, store: ConfigStore) throws(CLIError) -> ConfigSettings {
        if let settings = file.profiles[name] { return settings }
        throw file.unknownProfile(name, where: "in \(store.path)")
    }

    /// A settings group as JSON, with the file's keys and numbers as numbers.
    static func json(_ settings: ConfigSettings) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if let connection = settings.connection { members.append(("connection", .string(connection))) }
        for (name, value) in settings.orderedOptions {
            members.append((name, Int64(value).map(JSONValue.int) ?? Double(value).map(JSONValue.double) ?? .string(value)))
        }
        if let window = settings.window { members.append(("window", .int(Int64(window)))) }
        if let align = settings.align { members.append(("align", .int(Int64(align)))) }
        return .object(members)
    }

    /// A settings group as `key: value` words for a table: `baud=115200 window=8`.
    static func summary(_ settings: ConfigSettings) -> String {
        var words = settings.orderedOptions.map { "\($0.name)=\($0.value)" }
        if let window = settings.window { words.append("window=\(window)") }
        if let align = settings.align { words.append("align=\(align)") }
        return words.joined(separator: " ")
    }
}

extension ConfigSettings {
    /// The connection-string options that are set, in the grammar's order.
    var orderedOptions: [(name: String, value: String)] {
        ConfigSettings.keys.compactMap { name in options[name].map { (name: name, value: $0) } }
    }
}

extension ConfigFile {
    /// The error for profile `name`, which the file does not have (`place`: where it was looked
    /// for): the nearest name when one is close (a typo), and the names there are.
    func unknownProfile(_ name: String, where place: String) -> CLIError {
        let known = profileNames
        var message = "no profile \"\(name)\" \(place)"
        if let closest = ClosestName.to(name, among: known) { message += "; did you mean \"\(closest)\"?" }
        return CLIError(
            .usage, message,
            hint: known.isEmpty
                ? "there are no profiles yet; add one with: smpctl profile add \(ShellQuoting.quoted(name)) -c CONNECTION"
                : "the profiles are: \(known.joined(separator: ", ")) (smpctl profile list)")
    }
}
