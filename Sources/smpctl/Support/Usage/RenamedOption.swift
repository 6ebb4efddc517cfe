/// An option a command had under another name, so that each name means one thing in every
/// command (docs/options.md): the old spelling is refused with the new one.
struct RenamedOption: Sendable {
    /// The subcommand words: ["ports"].
    var command: [String]
    /// The old name: "--timeout".
    var old: String
    /// What to write now, and why: "the wait for the port is --wait-timeout SECONDS; …".
    var replacement: String

    /// Every renamed option. Spellings kept as hidden aliases (`image upload --upgrade`) are not here.
    static let all: [RenamedOption] = [
        RenamedOption(
            command: ["ports"], old: "--timeout",
            replacement: "the whole wait of --wait is --wait-timeout SECONDS (--timeout is the wait for each response)"),
        RenamedOption(
            command: ["ble", "scan"], old: "--timeout",
            replacement: "how long to scan is --duration SECONDS (--timeout is the wait for each response)"),
        RenamedOption(
            command: ["raw"], old: "--format",
            replacement: "--json prints the response as JSON, as in every command (the payload is --payload-json)"),
    ]

    /// The renaming of `option` in `command`, if it was renamed.
    static func find(_ option: String, command: [String]) -> RenamedOption? {
        let name = option.prefix { $0 != "=" }
        return all.first { $0.command == command && $0.old == name }
    }
}
