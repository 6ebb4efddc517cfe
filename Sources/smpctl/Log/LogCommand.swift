import ArgumentParser

/// `smpctl log …`: Mynewt's log group (4).
struct LogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Log group (Mynewt): show and clear the device's logs, list its logs, modules and levels.",
        subcommands: [LogShowCommand.self, LogClearCommand.self, LogListCommand.self, LogModulesCommand.self, LogLevelsCommand.self]
    )
}
