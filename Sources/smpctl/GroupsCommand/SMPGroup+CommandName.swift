import SMP

extension SMPGroup {
    /// The smpctl command for the group, where smpctl has one: `stat` for the statistics group
    /// (2), `zephyr` for Zephyr's basic group (63). `enum list`, `groups` and `raw --group` name
    /// a group this way, so that it has one name on the command line.
    var commandName: String? {
        let names: [SMPGroup: String] = [
            .os: "os", .image: "image", .statistics: "stat", .settings: "settings", .log: "log", .crash: "crash",
            .run: "run", .fileSystem: "fs", .shell: "shell", .enumeration: "enum", .zephyrBasic: "zephyr", .suit: "suit",
        ]
        guard let name = names[self], SMPCtl.configuration.subcommands.contains(where: { $0.configuration.commandName == name })
        else { return nil }
        return name
    }

    /// The group's name for people: its command's, else the library's (``SMPGroup/name``).
    var displayName: String? { commandName ?? name }

    /// The group `word` names on the command line: a command name (`stat`), the library's name
    /// (`statistics`) or a number.
    init?(commandLine word: String) {
        if let group = SMPGroup.known.first(where: { $0.commandName == word.lowercased() }) {
            self = group
        } else if let group = SMPGroup(name: word) {
            self = group
        } else {
            return nil
        }
    }
}
