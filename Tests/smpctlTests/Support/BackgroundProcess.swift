import Foundation
import SMPTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A long-running `smpctl` (e.g. `smpctl simulate`) whose output can be read while it runs and
/// which can be sent signals. Killed when the test ends if it is still running.
final class BackgroundProcess: @unchecked Sendable {
    private let process = Process()
    private let out: OutputBuffer
    private let err: OutputBuffer

    /// Starts `smpctl` with `arguments`, its environment changed by ``SMPCtl/isolated`` and `environment`.
    init(smpctl arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: try SMPCtl.executable())
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(SMPCtl.isolated.merging(environment) { $1 }) { $1 }
        process.standardInput = FileHandle.nullDevice
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        out = OutputBuffer(outPipe.fileHandleForReading)
        err = OutputBuffer(errPipe.fileHandleForReading)
        try process.run()
    }

    /// Standard output so far.
    var stdout: String { out.text }

    /// Standard error so far.
    var stderr: String { err.text }

    var isRunning: Bool { process.isRunning }

    /// Waits until standard output holds a complete line that `match` accepts, and returns it.
    func waitForLine(timeout: TimeInterval = 20, where match: (String) -> Bool) async -> String? {
        await waitForLine(in: out, timeout: timeout, where: match)
    }

    /// Waits until standard error holds a complete line that `match` accepts, and returns it; nil
    /// when the process ended or `timeout` passed first.
    func waitForErrorLine(timeout: TimeInterval = 20, where match: (String) -> Bool) async -> String? {
        await waitForLine(in: err, timeout: timeout, where: match)
    }

    private func waitForLine(in stream: OutputBuffer, timeout: TimeInterval, where match: (String) -> Bool) async -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = stream.text
            let complete = text.split(separator: "\n", omittingEmptySubsequences: true).dropLast(text.hasSuffix("\n") ? 0 : 1)
            if let line = complete.first(where: { match(String($0)) }) { return String(line) }
            if !process.isRunning && stream.isFinished { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// Sends a signal (SIGINT is Ctrl-C).
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to exit and its output to be read; returns its exit status, or nil
    /// if it still runs after `timeout`.
    func waitForExit(timeout: TimeInterval = 10) async -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        while !(out.isFinished && err.isFinished) && Date() < deadline.addingTimeInterval(5) {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return process.terminationStatus
    }

    /// Whether it ended by a signal rather than by exiting.
    var wasKilledBySignal: Bool { process.terminationReason == .uncaughtSignal }

    /// Kills it if it still runs.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

/// Collects what a pipe delivers, on its own thread, so a chatty child never blocks.
private final class OutputBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var finished = false

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                lock.lock()
                if chunk.isEmpty { finished = true } else { data.append(chunk) }
                lock.unlock()
                if chunk.isEmpty { break }
            }
        }
        thread.start()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }

    var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }
}

extension XCTestCase {
    /// Starts the real `smpctl simulate --udp 127.0.0.1:0` with `options` and waits for the
    /// address it prints; the process is killed when the test ends if it still runs.
    func startSimulateProcess(
        _ options: [String] = [], file: StaticString = #filePath, line: UInt = #line
    ) async throws -> (process: BackgroundProcess, endpoint: String) {
        let process = try BackgroundProcess(smpctl: ["simulate", "--udp", "127.0.0.1:0"] + options)
        addTeardownBlock { process.stop() }
        let announcement = await process.waitForLine { $0.contains("listening") }
        let text = try XCTUnwrap(
            announcement, "simulate printed no address\nstdout: \(process.stdout)\nstderr: \(process.stderr)", file: file, line: line)
        let endpoint = try XCTUnwrap(Self.endpoint(in: text), "no udp:HOST:PORT in \"\(text)\"", file: file, line: line)
        return (process, endpoint)
    }

    /// The first `udp:127.0.0.1:PORT` in a text, with a port other than 0.
    static func endpoint(in text: String) -> String? {
        guard let range = text.range(of: "udp:127.0.0.1:") else { return nil }
        let digits = text[range.upperBound...].prefix(while: \.isNumber)
        guard let port = Int(digits), port > 0, port <= 65_535 else { return nil }
        return "udp:127.0.0.1:\(port)"
    }
}

extension XCTestCase {
    /// Starts `smpctl arguments` (an upgrade with `--json`), waits until a progress line has at
    /// least `digits` digits of acknowledged bytes, sends Ctrl-C, checks that it exits 130, and
    /// returns its standard error.
    func interruptedUpgrade(
        _ arguments: [String], environment: [String: String] = [:], afterAcknowledgedDigits digits: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> String {
        let process = try BackgroundProcess(smpctl: arguments, environment: environment)
        addTeardownBlock { process.stop() }
        let pattern = #""acknowledged":[1-9]\d{"# + "\(digits - 1)" + #",}"#
        let seen = await process.waitForLine { text in
            text.contains("\"event\":\"progress\"") && text.range(of: pattern, options: .regularExpression) != nil
        }
        XCTAssertNotNil(seen, "the transfer got going\n\(process.stdout)\n\(process.stderr)", file: file, line: line)
        process.send(SIGINT)
        let status = await process.waitForExit()
        XCTAssertEqual(status, 130, process.stderr, file: file, line: line)
        return process.stderr
    }
}
