import Foundation
import SMPSimulator
import SMPTestSupport
import XCTest
@testable import smpctl

/// A device command works out its invocation once (``Invocation``): the config file is read and
/// parsed once per command, on one device or many, however often the command reconnects, prints
/// a pasteable command line or looks up its transfer defaults. Commands run in process, so that
/// ``ConfigStore``'s counters see them.
final class InvocationConfigReadTests: XCTestCase {
    /// Points `SMPCTL_CONFIG` at a file holding `text` for the rest of the test.
    private func useConfig(_ text: String) throws {
        let folder = try FileSystemTestFolder(self)
        let path = (folder.path as NSString).appendingPathComponent("config.yaml")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let previous = ProcessInfo.processInfo.environment["SMPCTL_CONFIG"]
        setenv("SMPCTL_CONFIG", path, 1)
        addTeardownBlock {
            if let previous { setenv("SMPCTL_CONFIG", previous, 1) } else { unsetenv("SMPCTL_CONFIG") }
        }
    }

    /// The config file's reads and parses while `run` runs.
    private func counted(_ run: () async throws -> Void) async throws -> (reads: Int, parses: Int) {
        let before = (reads: ConfigStore.reads.withLock { $0 }, parses: ConfigStore.parses.withLock { $0 })
        try await run()
        return (ConfigStore.reads.withLock { $0 } - before.reads, ConfigStore.parses.withLock { $0 } - before.parses)
    }

    private func upgrade(_ arguments: [String]) async throws -> (reads: Int, parses: Int) {
        try await counted {
            let command = try smpctl.UpgradeCommand.parse(arguments)
            try await command.run()
        }
    }

    /// Virtual devices on consecutive UDP ports, for a selector such as `udp:127.0.0.1:14000-14001`.
    private func startConsecutiveDevices(_ count: Int) async throws -> [ServedDevice] {
        for _ in 0..<20 {
            let base = Int.random(in: 20_000...60_000)
            var started: [ServedDevice] = []
            for port in base..<(base + count) {
                let device = VirtualDevice(configuration: UpgradeFiles.device(resetDelay: .zero))
                let server = UDPSimulatorServer(device: device, host: "127.0.0.1", port: port)
                guard (try? await server.start()) != nil else { break }
                addTeardownBlock { await server.stop() }
                started.append(ServedDevice(device: device, server: server, endpoint: "udp:127.0.0.1:\(port)"))
            }
            if started.count == count { return started }
            for served in started { await served.server.stop() }
        }
        try ExternalTool.unavailable("no \(count) consecutive free UDP ports on 127.0.0.1")
    }

    func testAPlainCommandReadsTheConfigFileOnce() async throws {
        let served = try await startDevice()
        try useConfig("defaults:\n  timeout: 5\nprofiles:\n  lab:\n    connection: \(served.endpoint)\n    retries: 1\n")
        let count = try await counted {
            let command = try smpctl.OSEchoCommand.parse(["hi", "-p", "lab", "--timeout", "4"])
            try await command.run()
        }
        XCTAssertEqual(count.reads, 1)
        XCTAssertEqual(count.parses, 1)
    }

    func testProfileShowReadsTheConfigFileOnce() async throws {
        try useConfig("profiles:\n  bench:\n    connection: udp:127.0.0.1:1337\n    timeout: 2\n")
        let count = try await counted {
            let command = try smpctl.ProfileShowCommand.parse(["bench", "--json"])
            try command.run()
        }
        XCTAssertEqual(count.reads, 1, "the profile's settings and what -p resolves to come from one read")
        XCTAssertEqual(count.parses, 1)
    }

    func testManyDevicesTakeTheConfigFilesWindowAndAlignmentAsOneDoes() async throws {
        try useConfig("defaults:\n  window: 4\n  align: 8\nprofiles:\n  rack:\n    connection: udp:127.0.0.1:14000-14001\n    window: 2\n")
        for (arguments, window) in [
            (["-c", "udp:127.0.0.1:14000"], 4), (["-c", "udp:127.0.0.1:14000-14001"], 4), (["-p", "rack"], 2),
        ] {
            let command = try smpctl.UpgradeCommand.parse(["app.bin"] + arguments)
            let invocation = try await command.global.resolveInvocation()
            XCTAssertEqual(invocation.window, window, "\(arguments)")
            XCTAssertEqual(invocation.align, 8, "\(arguments)")
        }
    }

    func testAnUpgradeOfOneDeviceReadsTheConfigFileOnce() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(UpgradeFiles.device(resetDelay: .zero))
        try useConfig("defaults:\n  timeout: 5\n  window: 4\nprofiles:\n  lab:\n    connection: \(served.endpoint)\n    retries: 1\n")
        let count = try await upgrade([app.path, "-p", "lab", "--progress", "none"])
        XCTAssertEqual(count.reads, 1, "one read, though the upgrade reconnects after the reset")
        XCTAssertEqual(count.parses, 1)
        let dryRun = try await upgrade([app.path, "--dry-run", "-p", "lab"])
        XCTAssertEqual(dryRun.reads, 1)
    }

    func testAnUpgradeOfManyDevicesFromATargetsFileReadsTheConfigFileOnce() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let first = try await startDevice(UpgradeFiles.device(resetDelay: .zero))
        let second = try await startDevice(UpgradeFiles.device(resetDelay: .zero))
        try useConfig("defaults:\n  timeout: 5\nprofiles:\n  lab:\n    connection: \(first.endpoint)\n    retries: 1\n")
        let folder = try FileSystemTestFolder(self)
        let targets = (folder.path as NSString).appendingPathComponent("targets.txt")
        // A profile line and a connection line: the profile is looked up in the same reading.
        try "lab\nbay-2 \(second.endpoint)\n".write(toFile: targets, atomically: true, encoding: .utf8)
        let count = try await upgrade([app.path, "--targets", targets, "--progress", "none"])
        XCTAssertEqual(count.reads, 1)
        XCTAssertEqual(count.parses, 1)
    }

    func testAnUpgradeOfManyDevicesFromASelectorReadsTheConfigFileOnce() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let devices = try await startConsecutiveDevices(2)
        try useConfig("defaults:\n  timeout: 5\n  retries: 1\n")
        let ports = devices.map { $0.endpoint.split(separator: ":").last.map(String.init) ?? "" }
        let selector = "udp:127.0.0.1:\(ports[0])-\(ports[1])"
        let count = try await upgrade([app.path, "-c", selector, "--progress", "none"])
        XCTAssertEqual(count.reads, 1)
        XCTAssertEqual(count.parses, 1)
    }
}
