import Dispatch
import Foundation
import SMPTestSupport

/// What one case of the bad-input table did.
struct BadInputOutcome: Sendable {
    /// The exit status (meaningless when ``signal`` or ``hung``).
    var status: Int32
    /// The signal that ended it, if one did.
    var signal: Int32?
    /// Whether the time limit ended it.
    var hung: Bool
    /// Standard output and error (error is empty when the case closed or redirected it).
    var stdout: String
    var stderr: String
    /// Whether standard error was captured (not closed, full, or merged into a closed pipe).
    var stderrSeen: Bool
    /// A problem the case's own after-run check found (data lost or changed).
    var afterwards: String?

    /// Whether it crashed: a signal other than the test's own kill, or the Swift runtime's report.
    var crashed: Bool {
        if hung { return false }
        if signal != nil { return true }
        return ["Fatal error", "Program crashed", "Current stack trace", "Backtrace"].contains { stderr.contains($0) }
    }

    /// `exit 64`, `signal 4`, `hang`.
    var summary: String {
        if hung { return "hang" }
        if let signal { return "signal \(signal)" }
        return crashed ? "crash (exit \(status))" : "exit \(status)"
    }
}

/// Runs the cases of the bad-input table: the real `smpctl` with the case's arguments, streams and
/// environment, under a time limit.
enum BadInputRunner {
    /// Runs `badInput` with `$TMP` (in its arguments and environment) meaning `folder` and its
    /// device at `endpoint`; `whileRunning` is called on another thread one second after the start
    /// (e.g. to kill the device).
    static func run(
        _ badInput: BadInputCase, executable: String, folder: String, endpoint: String?, whileRunning: (@Sendable () -> Void)? = nil
    ) async throws -> BadInputOutcome {
        var arguments = badInput.arguments.map { $0.replacingOccurrences(of: "$TMP", with: folder) }
        if let endpoint { arguments = ["-c", endpoint] + arguments }
        let environment = SMPCtl.isolated.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
            .merging(badInput.environment.mapValues { $0.replacingOccurrences(of: "$TMP", with: folder) }) { $1 }
        let (command, words, isPipeline) = command(for: badInput.streams, executable: executable, arguments: arguments, folder: folder, limit: badInput.timeout)
        let (program, argv) = badInput.hostsFromFilesOnly ? try FilesOnlyHostResolution.command(command, words) : (command, words)
        let input: String? = if case .input(let text) = badInput.streams { text } else { nil }
        let result: ProcessRunner.Result? = await withCheckedContinuation { continuation in
            if let whileRunning { DispatchQueue.global().asyncAfter(deadline: .now() + 1) { whileRunning() } }
            DispatchQueue.global().async {
                let result = try? ProcessRunner.run(
                    program, argv, input: input, environment: environment, timeout: badInput.timeout + (isPipeline ? 10 : 0))
                continuation.resume(returning: result)
            }
        }
        guard let result else {
            return BadInputOutcome(status: -1, hung: false, stdout: "", stderr: "error: the test could not start smpctl", stderrSeen: true)
        }
        var outcome = BadInputOutcome(
            status: result.status, signal: nil, hung: result.timedOut, stdout: result.stdout, stderr: result.stderr,
            stderrSeen: ![.closedStderr, .fullStderr].contains(badInput.streams) && !isBothHead(badInput.streams))
        if result.terminatedBySignal && !result.timedOut {
            outcome.signal = result.status
        } else if isPipeline && result.status > 128 {
            // bash reports a child ended by signal N as 128 + N; `timeout -s KILL` kills a hang with 9.
            if result.status == 128 + 9 { outcome.hung = true } else { outcome.signal = result.status - 128 }
        }
        outcome.afterwards = badInput.afterwards?(folder)
        return outcome
    }

    private static func isBothHead(_ streams: BadInputCase.Streams) -> Bool {
        if case .bothHead = streams { return true }
        return false
    }

    /// The program to start: `smpctl` itself, or bash setting up the streams and then exec'ing it
    /// (so that its exit status or signal is smpctl's), or a pipeline into `head`.
    private static func command(
        for streams: BadInputCase.Streams, executable: String, arguments: [String], folder: String, limit: TimeInterval
    ) -> (String, [String], Bool) {
        let exec: String
        switch streams {
        case .pipes, .input: return (executable, arguments, false)
        case .closedStdout: exec = "exec \"$0\" \"$@\" >&-"
        case .closedStderr: exec = "exec \"$0\" \"$@\" 2>&-"
        case .closedStdin: exec = "exec \"$0\" \"$@\" <&-"
        case .fullStdout: exec = "exec \"$0\" \"$@\" >/dev/full"
        case .fullStderr: exec = "exec \"$0\" \"$@\" 2>/dev/full"
        case .stdinFrom(let path):
            exec = "exec \"$0\" \"$@\" <'\(path.replacingOccurrences(of: "$TMP", with: folder))'"
        case .head(let lines):
            let pipeline = "timeout -s KILL \(Int(limit)) \"$0\" \"$@\" | head -n \(lines) >/dev/null; exit \"${PIPESTATUS[0]}\""
            return ("/bin/bash", ["-c", pipeline, executable] + arguments, true)
        case .bothHead(let lines):
            let pipeline = "timeout -s KILL \(Int(limit)) \"$0\" \"$@\" 2>&1 | head -n \(lines) >/dev/null; exit \"${PIPESTATUS[0]}\""
            return ("/bin/bash", ["-c", pipeline, executable] + arguments, true)
        }
        return ("/bin/bash", ["-c", exec, executable] + arguments, false)
    }
}
