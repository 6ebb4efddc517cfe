import FoundationEssentials
import SMP

/// Runs command lines typed or piped into `smpctl shell`: splits each into arguments, sends it,
/// and prints the device's output (or, with `--json`, one document per command).
struct ShellSession {
    let client: SMPClient
    let output: Output
    /// Print the output as the device sent it, even into a pipe (`--raw`).
    var raw = false

    /// Runs one line and returns its exit status: the device's return code as
    /// ``ShellResultRendering/exitStatus(_:)`` maps it, 64 for a line that cannot be split, 2 for
    /// a device error; nil for a blank line or a comment. Errors of the link end the session
    /// (they are thrown).
    func run(_ line: String) async throws -> Int32? {
        let argv: [String]
        do {
            argv = try ShellWords.split(line)
        } catch {
            output.report(CLIError(.usage, "cannot split the line into arguments: \(error)"))
            return ExitStatus.usage.rawValue
        }
        guard let first = argv.first, !first.hasPrefix("#") else { return nil }
        do {
            let result = try await client.executeShell(argv)
            ShellResultRendering.emit(result, argv: argv, raw: raw, to: output)
            return ShellResultRendering.exitStatus(result.returnCode)
        } catch .device(let deviceError, let request) {
            output.report(ShellGroupMissing.failure(SMPError.device(deviceError, request: request), endpoint: client.transport.endpoint))
            return ExitStatus.deviceError.rawValue
        }
    }

    /// Reads lines from piped standard input and runs each; returns the last command's status.
    func runPiped() async throws -> Int32 {
        var status: Int32 = 0
        var pending: [UInt8] = []
        for await chunk in StandardInputBytes.stream() {
            pending += chunk
            while let end = pending.firstIndex(of: 0x0A) {
                let line = Self.text(pending[..<end])
                pending.removeSubrange(...end)
                status = try await run(line) ?? status
            }
        }
        if !pending.isEmpty { status = try await run(Self.text(pending[...])) ?? status }
        return status
    }

    /// Edits lines on the terminal (raw mode, history) and runs each until Ctrl-D or the end of
    /// input; the history is saved after every command.
    func runInteractive(historyFile: ShellHistoryFile?) async throws {
        var editor = LineEditor(prompt: "uart:~$ ", history: historyFile?.load() ?? LineHistory(limit: ShellHistoryFile.limit))
        Output.status("remote shell on \(client.transport.endpoint): Ctrl-D quits, ↑/↓ history")
        Self.write(editor.start)
        for await chunk in StandardInputBytes.stream() {
            for byte in chunk {
                let (screen, event) = editor.feed(byte)
                Self.write(screen)
                switch event {
                case .submit(let line)?:
                    _ = try await run(line)
                    historyFile?.save(editor.history)
                    Self.write(editor.start)
                case .endOfInput?:
                    return
                case nil:
                    break
                }
            }
        }
        Self.write(Array("\r\n".utf8))
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        var line = String(decoding: bytes, as: UTF8.self)
        if line.hasSuffix("\r") { line.removeLast() }
        return line
    }

    private static func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        StandardStream.standardOutput.write(bytes: bytes)
    }
}
