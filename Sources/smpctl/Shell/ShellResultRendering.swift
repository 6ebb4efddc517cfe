import JSON
import SMP
#if canImport(Glibc)
import Glibc
#endif

/// How shell results are shown and turned into exit codes.
enum ShellResultRendering {
    /// `{"argv":[…],"output":"…","returnCode":N,"legacyReturnCode":false}`.
    static func json(argv: [String], _ result: ShellOutput) -> JSONValue {
        .object([
            ("argv", .array(argv.map(JSONValue.string))), ("output", .string(result.output)),
            ("returnCode", .int(result.returnCode)), ("legacyReturnCode", .bool(result.isLegacyReturnCode)),
        ])
    }

    /// Prints a result as the device sent it with `raw`; otherwise made plain
    /// (``ShellOutput/plainOutput``) in JSON, when standard output is not a terminal and when
    /// colours are off (`NO_COLOR`, `TERM=dumb`), and on a terminal with its colours but the line
    /// ends the terminal expects (``ShellOutput/terminalOutput``). Plain text has any control
    /// character left in it made visible (``TerminalText``).
    static func emit(_ result: ShellOutput, argv: [String], raw: Bool, to output: Output) {
        guard !raw else {
            output.emit(json(argv: argv, result), human: result.output, verbatim: true)
            return
        }
        let colours = isatty(STDOUT_FILENO) == 1 && TerminalText.allowsColour()
        output.emit(json(argv: argv, plain(result)), human: colours ? result.terminalOutput : result.plainOutput, verbatim: colours)
    }

    /// `result` with its output made plain (``ShellOutput/plainOutput``).
    static func plain(_ result: ShellOutput) -> ShellOutput {
        ShellOutput(output: result.plainOutput, returnCode: result.returnCode, isLegacyReturnCode: result.isLegacyReturnCode)
    }

    /// The process exit status for a device return code: its low 8 bits, but never 0 for a failure.
    static func exitStatus(_ returnCode: Int64) -> Int32 {
        let status = Int32(truncatingIfNeeded: returnCode & 0xFF)
        return returnCode != 0 && status == 0 ? 1 : status
    }
}
