import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The real `smpctl` with its standard input, output and error on the slave of a new
/// pseudo-terminal, as when run in a terminal window: the test types into the master and reads
/// the screen from it. Killed when the test ends if it still runs.
final class TerminalProcess: @unchecked Sendable {
    private let process = Process()
    private let master: Int32
    /// The slave end, kept open by the test to inspect the terminal's modes.
    let slave: Int32
    private let lock = NSLock()
    private var screenBytes: [UInt8] = []
    private var stopped = false

    /// Starts `smpctl` with `arguments` and `environment` added to the test's.
    init(smpctl arguments: [String], environment: [String: String] = [:]) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw TerminalFailure("openpty failed: errno \(errno)") }
        self.master = master
        self.slave = slave
        process.executableURL = URL(fileURLWithPath: try SMPCtl.executable())
        process.arguments = arguments
        // A terminal window's: the TERM and NO_COLOR of whatever runs the tests must not decide
        // whether smpctl may redraw lines or print colours; a test that wants otherwise says so.
        let window = ["TERM": "xterm-256color", "NO_COLOR": ""]
        process.environment = ProcessInfo.processInfo.environment.merging(window.merging(SMPCtl.isolated.merging(environment) { $1 }) { $1 }) { $1 }
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        Thread { [self] in readScreen() }.start()
    }

    /// The program's process ID while it runs.
    var processIdentifier: Int32? { process.isRunning ? process.processIdentifier : nil }

    /// Everything the program wrote so far.
    var screen: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: screenBytes, as: UTF8.self)
    }

    /// Types bytes (keys) into the terminal.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits until the screen holds `text` `count` times; false on timeout.
    func waitForScreen(_ text: String, count: Int = 1, timeout: TimeInterval = 20) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if screen.components(separatedBy: text).count - 1 >= count { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// The slave's local modes (`c_lflag`), to see whether raw mode is on.
    var localModes: tcflag_t {
        var settings = termios()
        tcgetattr(slave, &settings)
        return settings.c_lflag
    }

    /// Waits for the exit; the status, or nil if it still runs after `timeout`.
    func waitForExit(timeout: TimeInterval = 20) async -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        try? await Task.sleep(for: .milliseconds(50))
        return process.terminationStatus
    }

    /// Kills the program if it runs and closes the terminal.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        if !wasStopped {
            close(slave)
        }
    }

    private func readScreen() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            lock.lock()
            let done = stopped
            lock.unlock()
            if done { break }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { break }
            lock.lock()
            screenBytes += buffer.prefix(count)
            lock.unlock()
        }
        close(master)
    }

    deinit { stop() }
}

/// A pseudo-terminal that could not be set up.
struct TerminalFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
