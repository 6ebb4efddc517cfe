import ArgumentParser
import SMP

/// `smpctl shell exec CMD ARGS...` (`-- CMD` too)
struct ShellExecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run one command in the device's shell, print its output, and exit with its return code.",
        discussion: """
            smpctl's options come first; from the first other word on, everything is the device \
            command and its arguments (a command that starts with a dash goes after --):
              smpctl shell exec -c udp:192.0.2.1 kernel uptime
            The exit status is the device command's return code modulo 256 (as a POSIX shell's \
            `exit`): 0 when it succeeded, 248 for -8 (ENOEXEC, command not found), 2 for a command \
            that returned 2; a return code that is a multiple of 256 but not 0 exits 1. smpctl's own \
            failures keep their codes (75 no answer, 69 unreachable, 2 the device's SMP error, 64 \
            bad arguments) and print an error line; with --json, a result has "returnCode" and a \
            failure is an error document (docs/exit-codes.md).
            The device's CR LF line ends become LF and the line end it writes first is dropped; \
            into a pipe or a file and in JSON its colours and other escape sequences are removed \
            too. --raw prints the output exactly as the device sent it.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print the output exactly as the device sent it (colours, CR LF), even into a pipe.")
    var raw = false

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The command and its arguments.", valueName: "command"))
    var words: [String] = []

    /// The device command: every word after smpctl's options, without a leading `--`.
    var argv: [String] { words.first == "--" ? Array(words.dropFirst()) : words }

    /// `shell exec --help` (or `-h`) before any command word is smpctl's help, not a device command.
    func validate() throws {
        if words.first == "--help" || words.first == "-h" { throw CleanExit.helpRequest(self) }
    }

    func run() async throws {
        let argv = argv
        try await global.withClient { client, output in
            let result = try await Self.execute(argv, on: client)
            ShellResultRendering.emit(result, argv: argv, raw: raw, to: output)
            let status = ShellResultRendering.exitStatus(result.returnCode)
            if status != 0 { throw ExitCode(status) }
        }
    }

    /// Runs `argv` on the device; a device without the shell group is said so once, with where its shell is.
    private static func execute(_ argv: [String], on client: SMPClient) async throws -> ShellOutput {
        do {
            return try await client.executeShell(argv)
        } catch {
            throw ShellGroupMissing.failure(error, endpoint: client.transport.endpoint)
        }
    }
}
