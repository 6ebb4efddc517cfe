import Dispatch
import Foundation
import SMPTestSupport

/// Runs the real `smpctl` with `--json` and acts the moment it has printed its Nth progress line
/// (the Nth acknowledged chunk): a Ctrl-C (SIGINT), a SIGKILL, or something else (`act`, e.g.
/// killing the device), so that a transfer is interrupted at a chosen chunk boundary.
enum InterruptedSMPCtl {
    /// How the run is interrupted.
    enum Stop: String, Sendable, CaseIterable {
        /// Ctrl-C: smpctl cancels and exits 130.
        case sigint
        /// `kill -9` of smpctl: nothing runs after it.
        case sigkill
        /// The device dies (power loss): smpctl is killed at once, and the caller power-cycles
        /// the device before anything else reaches it.
        case deviceKill
    }

    /// What one interrupted run did.
    struct Outcome: Sendable {
        /// Whether the Nth progress line came (else the run ended before it).
        var reached: Bool
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `smpctl ARGUMENTS` (killed after `timeout`); after its `progressLines`th progress line
    /// sends SIGINT, or SIGKILL (``Stop/sigkill`` and ``Stop/deviceKill``).
    static func run(_ arguments: [String], cache: URL, progressLines: Int, stop: Stop, timeout: TimeInterval = 30) async throws -> Outcome {
        let executable = try ExternalTool.builtProduct("smpctl")
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    try runBlocking(executable, arguments, cache: cache, progressLines: progressLines, stop: stop, timeout: timeout)
                })
            }
        }
    }

    private static func runBlocking(
        _ executable: String, _ arguments: [String], cache: URL, progressLines: Int, stop: Stop, timeout: TimeInterval
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SMPCTL_CONNECTION"] = ""
        environment["XDG_CACHE_HOME"] = cache.path
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let stderrData = LockedData()
        let errorReader = DispatchWorkItem { stderrData.set(errors.fileHandleForReading.readDataToEndOfFile()) }
        DispatchQueue.global().async(execute: errorReader)
        var stdout = Data()
        var pending = Data()
        var progress = 0
        var reached = false
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            stdout.append(chunk)
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                guard !reached, line.contains("\"event\":\"progress\"") else { continue }
                progress += 1
                guard progress == progressLines else { continue }
                reached = true
                kill(pid, stop == .sigint ? SIGINT : SIGKILL)
            }
        }
        process.waitUntilExit()
        watchdog.cancel()
        errorReader.wait()
        // Killed by a signal (a Ctrl-C that came once smpctl no longer handles it, after the
        // transfer): the status a shell reports, 128 + the signal, not the bare signal number
        // Foundation gives (2 for SIGINT, which read as smpctl's exit 2).
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Outcome(
            reached: reached, status: status, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderrData.value, as: UTF8.self))
    }
}

/// Data written by one thread and read by another.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func set(_ value: Data) { lock.withLock { data = value } }
    var value: Data { lock.withLock { data } }
}
