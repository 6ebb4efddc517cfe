import Foundation

/// A native_sim fixture running as a program in its own temporary folder, with its flash in a
/// file there (when the build has a flash simulator), restartable after an `os reset` ended it.
public final class NativeSimDevice: @unchecked Sendable {
    /// The fixture.
    public let fixture: ZephyrFixture
    /// The temporary folder: working directory, `flash.bin`, `device.log`.
    public let scratch: URL
    private let executable: String
    private let lock = NSLock()
    private var process: FixtureProcess?
    private var currentPTY: String?

    /// How long a start may take before the test fails.
    public static let startTimeout: TimeInterval = 10

    /// Starts `fixture` (a native_sim one) with erased flash and waits until it is ready: its
    /// pseudo-terminal is announced, or its UDP server started.
    public static func start(_ fixture: ZephyrFixture, in folder: ZephyrFixtureFolder) async throws -> NativeSimDevice {
        try FixtureTools.requireI386Loader()
        let device = NativeSimDevice(
            fixture: fixture, executable: folder.path(of: fixture.artifact), scratch: try FixtureScratch.makeFolder(fixture.name))
        try await device.launch(eraseFlash: true)
        return device
    }

    private init(fixture: ZephyrFixture, executable: String, scratch: URL) {
        self.fixture = fixture
        self.executable = executable
        self.scratch = scratch
    }

    /// The device's UART (`/dev/pts/N`) for serial fixtures, as the running process announced it.
    public var ptyPath: String? { lock.withLock { currentPTY } }

    /// Whether the program runs (an `os reset` ends it).
    public var isRunning: Bool { lock.withLock { process?.isRunning ?? false } }

    /// Everything the program printed, over all its starts.
    public var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "(no log)" }

    private var logURL: URL { scratch.appendingPathComponent("device.log") }

    private var flashURL: URL { scratch.appendingPathComponent("flash.bin") }

    /// Starts the program again after it ended (an `os reset`), keeping its flash; waits up to
    /// `exitTimeout` for the old process to end first and kills it if it still runs.
    public func restart(exitTimeout: TimeInterval = 5) async throws {
        if let old = lock.withLock({ process }) {
            _ = await old.waitForExit(timeout: exitTimeout)
            old.stop()
        }
        try await launch(eraseFlash: false)
    }

    /// Ends the program (SIGTERM, then SIGKILL after `grace` seconds; 0: at once, as a power loss).
    public func stop(grace: TimeInterval = 2) {
        lock.withLock { process }?.stop(grace: grace)
    }

    private func launch(eraseFlash: Bool) async throws {
        var arguments: [String] = []
        if try Self.acceptsFlashOption(executable) {
            arguments.append("--flash=\(flashURL.path)")
            if eraseFlash { arguments.append("-flash_erase") }
        }
        if let port = fixture.udpPort { try await Self.waitUntilUDPPortIsFree(port) }
        let offset = (try? FileManager.default.attributesOfItem(atPath: logURL.path)[.size] as? Int) ?? 0
        let started = try FixtureProcess(
            name: fixture.name, executable: executable, arguments: arguments, workingDirectory: scratch, logURL: logURL)
        lock.withLock {
            process = started
            currentPTY = nil
        }
        if fixture.transport == "udp" {
            _ = try await started.waitForLine(after: offset, timeout: Self.startTimeout, what: "\"smp_udp: Started\"") {
                $0.contains("smp_udp: Started") ? true : nil
            }
        } else {
            let marker = "uart connected to pseudotty: "
            let pty = try await started.waitForLine(after: offset, timeout: Self.startTimeout, what: "\"\(marker)/dev/pts/N\"") { line in
                line.range(of: marker).map { String(line[$0.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines) }
            }
            lock.withLock { currentPTY = pty }
        }
    }

    /// Waits (up to 15 s) until nobody serves on the UDP port: only one UDP fixture can own 1337.
    private static func waitUntilUDPPortIsFree(_ port: Int) async throws {
        let deadline = Date().addingTimeInterval(15)
        while !LoopbackPorts.udpPortIsFree(port) {
            guard Date() < deadline else {
                throw FixtureProcessFailure(
                    message: "UDP port \(port) on the loopback stays taken for 15 s (another UDP fixture or simulator runs); stop it and run again",
                    log: "")
            }
            try await Task.sleep(for: .milliseconds(250))
        }
    }

    private static let flashSupport = FlashSupportCache()

    /// Whether the executable's `--help` lists `-flash` (asked once per executable and process).
    static func acceptsFlashOption(_ executable: String) throws -> Bool {
        if let known = flashSupport.value(for: executable) { return known }
        let help = try ProcessRunner.run(executable, ["--help"], timeout: 10)
        let accepts = (help.stdout + help.stderr).contains("-flash=")
        flashSupport.set(accepts, for: executable)
        return accepts
    }
}

/// Which executables accept `--flash`, remembered per process.
private final class FlashSupportCache: @unchecked Sendable {
    private let lock = NSLock()
    private var known: [String: Bool] = [:]

    func value(for executable: String) -> Bool? { lock.withLock { known[executable] } }

    func set(_ value: Bool, for executable: String) { lock.withLock { known[executable] = value } }
}
