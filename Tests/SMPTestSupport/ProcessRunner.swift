import Foundation

/// Runs a program to completion with a time limit, capturing its output.
public enum ProcessRunner {
    /// The outcome of a run.
    public struct Result: Sendable {
        /// Exit status (or the signal number when killed).
        public var status: Int32
        /// Standard output as text.
        public var stdout: String
        /// Standard error as text.
        public var stderr: String
        /// Whether the time limit ended it.
        public var timedOut: Bool
        /// Whether a signal ended it (then ``status`` is the signal's number).
        public var terminatedBySignal = false
    }

    /// Runs `executable` (a path, or a name looked up in PATH) with `arguments`.
    public static func run(
        _ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
        timeout: TimeInterval = 120
    ) throws -> Result {
        let process = Process()
        setCommand(of: process, executable, arguments)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        let outData = DataCollector(stdout.fileHandleForReading)
        let errData = DataCollector(stderr.fileHandleForReading)
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try? stdin.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let timedOut = process.isRunning
        if timedOut {
            // SIGKILL: a child may have inherited a blocked or ignored SIGTERM.
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: outData.finish(), stderr: errData.finish(), timedOut: timedOut,
            terminatedBySignal: process.terminationReason == .uncaughtSignal)
    }
}

extension ProcessRunner {
    /// Sets what `process` runs: `executable` as a path, or a name looked up in PATH through `env`.
    public static func setCommand(of process: Process, _ executable: String, _ arguments: [String]) {
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
    }
}

/// Reads a pipe on a background thread so that a chatty child never blocks on a full pipe.
private final class DataCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        let reader = Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.lock()
                data.append(chunk)
                lock.unlock()
            }
            done.signal()
        }
        reader.start()
    }

    func finish() -> String {
        done.wait()
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}
