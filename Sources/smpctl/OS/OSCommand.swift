import ArgumentParser

/// `smpctl os …`: the OS management group (0).
struct OSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "os",
        abstract: "OS group: echo, task and memory statistics, date-time, reset, parameters, info, bootloader.",
        subcommands: [
            OSEchoCommand.self, OSTaskStatCommand.self, OSMPStatCommand.self, OSDateTimeCommand.self,
            OSResetCommand.self, OSParamsCommand.self, OSInfoCommand.self, OSBootloaderCommand.self,
            OSConsoleEchoCommand.self,
        ]
    )
}
