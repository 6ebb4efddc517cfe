import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A long-running helper process of a fixture (a native_sim executable, QEMU, socat, ser2net)
/// whose standard output and error go to a log file, so that a failing test can print them.
///
/// `stop()` ends it with SIGTERM, then SIGKILL after a grace period; call it from a teardown
/// block so that nothing outlives the test.
public final class FixtureProcess: @unchecked Sendable {
    /// A short name for messages, e.g. `native_sim/serial`.
    public let name: String
    /// The file that receives standard output and standard error.
    public let logURL: URL
    private let process = Process()

    /// Starts `executable` (an absolute path, or a name looked up in PATH) in `workingDirectory`,
    /// appending its output to `logURL` after a line naming the command.
    public init(name: String, executable: String, arguments: [String], workingDirectory: URL, logURL: URL) throws {
        self.name = name
        self.logURL = logURL
        if !FileManager.default.fileExists(atPath: logURL.path) { _ = FileManager.default.createFile(atPath: logURL.path, contents: nil) }
        let log = try FileHandle(forWritingTo: logURL)
        defer { try? log.close() }
        try log.seekToEnd()
        log.write(Data("=== \(([executable] + arguments).joined(separator: " ")) (in \(workingDirectory.path))\n".utf8))
        ProcessRunner.setCommand(of: process, executable, arguments)
        process.currentDirectoryURL = workingDirectory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        try process.run()
    }

    /// The process ID.
    public var pid: Int32 { process.processIdentifier }

    /// Whether it still runs.
    public var isRunning: Bool { process.isRunning }

    /// Everything logged so far (all starts that shared this log file).
    public var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "(no log at \(logURL.path))" }

    /// Waits until the log, after `offset` bytes, holds a line that `match` turns into a value.
    /// Throws ``FixtureProcessFailure`` when the process ends or `timeout` passes first.
    public func waitForLine<T>(
        after offset: Int = 0, timeout: TimeInterval, what: String, match: (Substring) -> T?
    ) async throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let text = log
            let start = text.utf8.index(text.startIndex, offsetBy: min(offset, text.utf8.count))
            for line in text[start...].split(separator: "\n") {
                if let value = match(line) { return value }
            }
            if !isRunning { throw FixtureProcessFailure(message: "\(name) ended (status \(process.terminationStatus)) before \(what)", log: log) }
            if Date() >= deadline { throw FixtureProcessFailure(message: "\(name) showed no \(what) within \(timeout) s", log: log) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits up to `timeout` for the process to end by itself; returns whether it did.
    public func waitForExit(timeout: TimeInterval) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return !isRunning
    }

    /// Ends it: SIGTERM, and SIGKILL if it still runs after `grace` seconds. Safe to call twice.
    public func stop(grace: TimeInterval = 2) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// A fixture process did not get ready, with its log.
public struct FixtureProcessFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// The process's output.
    public var log: String

    /// Creates a failure.
    public init(message: String, log: String) {
        self.message = message
        self.log = log
    }

    public var description: String { log.isEmpty ? message : "\(message)\n--- log:\n\(log.suffix(4000))---" }
}

/// A fresh temporary folder for one fixture's flash file, logs and links.
public enum FixtureScratch {
    /// Creates `/tmp/smpctl-fixture-NAME-XXXXXXXX`.
    public static func makeFolder(_ name: String) throws -> URL {
        let safe = name.map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "smpctl-fixture-\(String(safe))-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
