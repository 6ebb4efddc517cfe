import Foundation
import SMPTestSupport

/// Our virtual device (`smpctl simulate --serial-link PATH`) configured like a fixture (buffer
/// size and count, groups), so that the scenarios that pass on real firmware check the simulator.
final class VirtualConformanceDevice: ConformanceDevice, @unchecked Sendable {
    let fixture: ZephyrFixture
    private let lock = NSLock()
    private var current: FixtureProcess
    private let arguments: [String]
    private let linkPath: String
    private let scratch: URL

    private var process: FixtureProcess { lock.withLock { current } }

    var isVirtual: Bool { true }

    /// The `simulate` options that make the virtual device look like `fixture`.
    static func simulateOptions(like fixture: ZephyrFixture) -> [String] {
        var options = ["--buf-size", String(fixture.bufSize), "--buf-count", String(fixture.bufCount)]
        options += ["--images", fixture.offers("img") ? "1" : "0"]
        if !fixture.offers("fs") { options.append("--no-fs") }
        if !fixture.offers("shell") { options.append("--no-shell") }
        if !fixture.offers("settings") { options.append("--no-settings") }
        if !fixture.offers("zbasic") { options.append("--no-zephyr-basic") }
        // The stock configuration's two UART receive line buffers (the fixtures README): lines
        // that arrive while both are full are lost, as on the real firmware.
        if fixture.transport == "serial" && fixture.lineLengthMax == 128 && !fixture.isQEMU {
            options += ["--line-buffers", "2"]
        }
        // The mps2 MCUboot fixtures: a RAM-load application without bootloader info, and
        // MCUboot's serial recovery (its buffer; 4-byte flash writes) behind boot mode 1.
        if fixture.transport == "serial_raw" { options += ["--framing", "raw"] }
        if fixture.serialRecovery == true {
            options += ["--bootloader-mode", "ram-load", "--no-bootloader-info", "--slot-size", "524288", "--serial-recovery"]
            options += ["--recovery-buf-size", String(fixture.recoveryBufSize ?? 1024), "--recovery-buf-count", String(fixture.recoveryBufCount ?? 1)]
            options += ["--recovery-write-alignment", "4"]
        }
        return options
    }

    static func start(like fixture: ZephyrFixture) async throws -> VirtualConformanceDevice {
        let scratch = try FixtureScratch.makeFolder("virtual-\(fixture.config)")
        let link = scratch.appendingPathComponent("tty").path
        let arguments = ["simulate", "--serial-link", link] + simulateOptions(like: fixture)
        let process = try await launch(fixture, arguments: arguments, link: link, scratch: scratch)
        // It imitates the fixture's buffers and groups, but on a serial link (raw or console) whatever the fixture's transport.
        var imitated = fixture
        imitated.transport = fixture.transport == "serial_raw" ? "serial_raw" : "serial"
        imitated.ipFamily = nil
        imitated.udpPort = nil
        return VirtualConformanceDevice(fixture: imitated, process: process, arguments: arguments, linkPath: link, scratch: scratch)
    }

    /// Starts `smpctl simulate` and waits for its link.
    private static func launch(_ fixture: ZephyrFixture, arguments: [String], link: String, scratch: URL) async throws -> FixtureProcess {
        let process = try FixtureProcess(
            name: "smpctl simulate (like \(fixture.name))", executable: try ExternalTool.builtProduct("smpctl"),
            arguments: arguments, workingDirectory: scratch, logURL: scratch.appendingPathComponent("simulate.log"))
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: link) {
            guard process.isRunning, Date() < deadline else {
                process.stop()
                throw FixtureProcessFailure(message: "smpctl simulate made no link at \(link) within 10 s", log: process.log)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process
    }

    private init(fixture: ZephyrFixture, process: FixtureProcess, arguments: [String], linkPath: String, scratch: URL) {
        self.fixture = fixture
        self.current = process
        self.arguments = arguments
        self.linkPath = linkPath
        self.scratch = scratch
    }

    func powerCycle() async throws {
        process.stop(grace: 0)
        try? FileManager.default.removeItem(atPath: linkPath)
        let started = try await Self.launch(fixture, arguments: arguments, link: linkPath, scratch: scratch)
        lock.withLock { current = started }
    }

    var connection: String { "serial:\(linkPath)\(framingQuery(fixture))" }

    func recoverFromReset() async throws {
        // The reset takes effect 250 ms after its answer (Zephyr's MCUMGR_GRP_OS_RESET_MS,
        // MCUboot's bs_reset): the next step must meet the program that boots.
        try await Task.sleep(for: .milliseconds(400))
        guard process.isRunning else { throw FixtureProcessFailure(message: "smpctl simulate ended after a reset", log: process.log) }
    }

    var logs: String { "--- simulate log:\n\(process.log.suffix(4000))" }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: scratch)
    }
}
