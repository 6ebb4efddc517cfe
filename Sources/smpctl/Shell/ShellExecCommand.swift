import ArgumentParser
import SMP
import SMPKit

/// `smpctl shell exec CMD ARGS...` (`-- CMD` too)
struct ShellExecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run one command in the device's shell, print its output, and exit with its return code.",
        discussion: """
            smpctl's options come first; from the first other word on, everything is the device \
            command and its arguments (a command that starts with a dash goes after --). One of \
            smpctl's options after the device command is refused, as it would reach the device; \
            after -- every word is the device's.
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
    /// One of smpctl's options written after the device command (`kernel uptime --json`) would go
    /// to the device: refused, unless `--` says that the words are the device's as written.
    func validate() throws {
        if words.first == "--help" || words.first == "-h" { throw CleanExit.helpRequest(self) }
        if words.first != "--", let misplaced = Self.smpctlOption(in: words.dropFirst()) {
            var command = words
            let option = command[misplaced.index..<misplaced.index + misplaced.count]
            command.removeSubrange(option.indices)
            throw ValidationError(
                "\(words[misplaced.index]) after the device command would be sent to the device as an argument: write smpctl's "
                    + "options before the device command (smpctl shell exec \((option + command).joined(separator: " "))), "
                    + "or put -- before the device command to send every word as written")
        }
    }

    /// The options that only smpctl takes. `-c` is one only with a connection string: Zephyr's
    /// `net ping -c 3` counts with it.
    static let ownOptions = ["--connection", "--profile", "--targets", "--jobs", "--report", "--timeout", "--retries", "--log-file", "--progress"]

    /// smpctl's options without a value that no device command takes.
    static let flags = ["--json", "--quiet", "--raw"]

    /// Where the first of smpctl's own options among `words` is (`--json`, `--timeout=2`,
    /// `-c udp:…`), and how many words it takes with its value; nil when there is none.
    static func smpctlOption(in words: ArraySlice<String>) -> (index: Int, count: Int)? {
        for (index, word) in zip(words.indices, words) {
            let name = String(word.prefix { $0 != "=" })
            if flags.contains(name) { return (index, 1) }
            if ownOptions.contains(name) { return (index, word.contains("=") || index + 1 == words.endIndex ? 1 : 2) }
            if word == "-c", index + 1 < words.endIndex, (try? ConnectionString(parsing: words[index + 1])) != nil { return (index, 2) }
        }
        return nil
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
