import ArgumentParser
import SMP

/// `smpctl shell [interactive]`: a remote shell on the device.
struct ShellInteractiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "interactive",
        abstract: "An interactive remote shell with line editing and history (the default of `smpctl shell`).",
        discussion: """
            On a terminal: type device shell commands; keys: Left/Right Ctrl-B/F move, Home/End Ctrl-A/E, \
            Backspace/Delete, Ctrl-K/U/W cut, Ctrl-L clear, Up/Down history, Ctrl-C drop the line, \
            Ctrl-D (empty line) quit. History: $XDG_STATE_HOME/smpctl/shell_history \
            (~/.local/state/smpctl/shell_history), the last 1000 lines.

            Piped input: each line runs as one command, no prompt; the exit status is the last \
            command's. Lines are split like a POSIX shell does ('...', "...", backslashes). Output into a \
            pipe or file is made plain (no colours, LF line ends) unless --raw.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print the output exactly as the device sent it (colours, CR LF), even into a pipe.")
    var raw = false

    func run() async throws {
        try await global.withOneClient(because: "an interactive shell talks to one device; `smpctl shell exec COMMAND` runs a command on many") { client, output in
            let session = ShellSession(client: client, output: output, raw: raw)
            if let terminal = RawTerminal() {
                defer { terminal.restore() }
                try await session.runInteractive(historyFile: ShellHistoryFile.standard())
            } else {
                let status = try await session.runPiped()
                if status != 0 { throw ExitCode(status) }
            }
        }
    }
}
