import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process of the BlueZ mock harnesses (`dbus-daemon`, `mock_bluez.py`, BlueZoo and its peripheral) whose output lines
/// can be awaited while it runs. Terminated (SIGTERM, then SIGKILL) by ``stop()`` or when released.
final class BlueZMockProcess: @unchecked Sendable {
    /// What the process is, for error messages (e.g. "dbus-daemon").
    let name: String
    private let process = Process()
    private let out: LineBuffer
    private let err: LineBuffer

    /// Starts `executable` (an absolute path) with `arguments` and extra `environment` variables.
    ///
    /// The test process blocks SIGTERM and SIGINT and a child inherits that mask, so the child would
    /// ignore ``stop()``; it is started through `env --default-signal=TERM,INT`, which unblocks them.
    init(name: String, executable: String, arguments: [String], environment: [String: String] = [:]) throws {
        self.name = name
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal=TERM,INT", executable] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        out = LineBuffer(outPipe.fileHandleForReading)
        err = LineBuffer(errPipe.fileHandleForReading)
        do {
            try process.run()
        } catch {
            throw BlueZMockError("cannot start \(name) (\(executable)): \(error)")
        }
    }

    /// Standard error so far.
    var stderr: String { err.text }

    /// Waits for the first complete line of standard output; nil when the process ended or
    /// `timeout` passed first.
    func firstLine(timeout: Duration) async -> String? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if let line = out.firstLine { return line }
            if !process.isRunning && out.isFinished { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// Sends SIGTERM, waits up to two seconds, then SIGKILL; does nothing when it has ended.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// Collects what a pipe delivers on its own thread, so that a chatty child never blocks.
private final class LineBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var finished = false

    init(_ handle: FileHandle) {
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                lock.withLock { if chunk.isEmpty { finished = true } else { data.append(chunk) } }
                if chunk.isEmpty { break }
            }
        }.start()
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    var isFinished: Bool { lock.withLock { finished } }

    /// The first newline-terminated line, without the newline.
    var firstLine: String? {
        lock.withLock {
            guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            return String(decoding: data[data.startIndex..<newline], as: UTF8.self)
        }
    }
}
