import SMP

import ArgumentParser

/// `smpctl settings …`: the settings group (3).
struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Settings group: read, write and delete settings; commit, load and save them.",
        discussion: """
            Values are bytes; --as says how to read or write them: string (UTF-8), hex (01ab or \
            01:ab), u8 u16 u32 u64 i8 i16 i32 i64 (little-endian integers). A write is applied by \
            `commit` and kept over a reset by `save`.
            """,
        subcommands: [
            SettingsReadCommand.self, SettingsWriteCommand.self, SettingsDeleteCommand.self, SettingsCommitCommand.self,
            SettingsLoadCommand.self, SettingsSaveCommand.self,
        ]
    )
}

extension SettingsValueType: ExpressibleByArgument {}
