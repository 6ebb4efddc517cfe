import ArgumentParser

/// `smpctl shell …`: the shell group (9). Without a subcommand: the interactive remote shell.
struct ShellCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shell",
        abstract: "Shell group: run device shell commands, or an interactive remote shell (the default).",
        subcommands: [ShellInteractiveCommand.self, ShellExecCommand.self],
        defaultSubcommand: ShellInteractiveCommand.self
    )
}
