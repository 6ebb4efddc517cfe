import ArgumentParser
import SMP

/// `smpctl shell exec -- CMD ARGS...`
struct ShellExecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run one command in the device's shell, print its output, and exit with its return code.",
        discussion: """
            Put the device command after --, so that its options are not read as smpctl's:
              smpctl shell exec -c udp:192.0.2.1 -- kernel uptime
            The exit status is the device's return code modulo 256 (as a POSIX shell's `exit`), \
            e.g. 248 for -8 (ENOEXEC, command not found); a return code that is a multiple of 256 \
            but not 0 exits 1.
            The device's CR LF line ends become LF and the line end it writes first is dropped; \
            into a pipe or a file and in JSON its colours and other escape sequences are removed \
            too. --raw prints the output exactly as the device sent it.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print the output exactly as the device sent it (colours, CR LF), even into a pipe.")
    var raw = false

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The command and its arguments.", valueName: "command"))
    var argv: [String] = []

    func run() async throws {
        try await global.withClient { client, output in
            let result = try await client.executeShell(argv)
            ShellResultRendering.emit(result, argv: argv, raw: raw, to: output)
            let status = ShellResultRendering.exitStatus(result.returnCode)
            if status != 0 { throw ExitCode(status) }
        }
    }
}
