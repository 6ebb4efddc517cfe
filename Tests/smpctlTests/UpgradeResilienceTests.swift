import Foundation
import SMPSimulator
import XCTest

/// `smpctl upgrade` over a faulty UDP link and over a pseudo-terminal: the image always arrives
/// intact, and the upload never starts over without need.
final class UpgradeResilienceTests: XCTestCase {
    func testFaultyLinkStillInstallsTheExactImageWithoutStartingOver() async throws {
        let app = try UpgradeFiles.file("app-v2")
        for seed: UInt64 in [1, 2, 3] {
            let faults = FaultInjection(
                drop: 0.05, duplicate: 0.05, delay: 0.05, delayDuration: .milliseconds(30), reorder: 0.05, busy: 0.05, seed: seed)
            let served = try await startDevice(UpgradeFiles.device(), faults: faults)
            let run = try await SMPCtl.run(
                ["upgrade", app.path, "--json", "--timeout", "0.3", "--retries", "8", "-c", served.endpoint], timeout: 60)
            assertExit(run, 0)
            let done = try XCTUnwrap(try jsonLines(run).last)
            XCTAssertEqual(done["event"]?.string, "done", "seed \(seed)")
            let sent = try XCTUnwrap(done["uploads"]?[0]?["bytesSent"]?.int)
            XCTAssertLessThanOrEqual(Double(sent), 1.5 * Double(app.size), "seed \(seed): no restart from zero")
            let holds = try await slotHolds(served, slot: 0, file: app.path)
            XCTAssertTrue(holds, "seed \(seed): the running slot holds exactly the file")
            let slots = try await listedSlots(served)
            XCTAssertEqual(slots.first, "0/0 2.0.0 ac", "seed \(seed)")
            let injected = await served.device.faultStatistics
            XCTAssertGreaterThan(injected.dropped + injected.busy, 0, "seed \(seed): faults were injected")
        }
    }

    func testUpgradeOverAPseudoTerminal() async throws {
        let app = try UpgradeFiles.file("app-v3-signed")
        let served = try await startSerialDevice(UpgradeFiles.device())
        let run = try await SMPCtl.run(["upgrade", app.path, "-c", served.connection], timeout: 60)
        assertExit(run, 0)
        XCTAssertTrue(run.stdout.contains("upgraded with"), "\(run)")
        let group = await served.device.group(.image) as? ImageGroup
        let running = try XCTUnwrap(group).contents(image: 0, slot: 0)
        XCTAssertEqual(running, [UInt8](try Data(contentsOf: URL(fileURLWithPath: app.path))))
    }

    func testUpgradeOverANoisyPacedSerialLine() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let options = PTYSimulatorOptions(baudRate: 1_000_000, logLinesPerSecond: 20, noise: 0.02, crcErrors: 0.02)
        let served = try await startSerialDevice(UpgradeFiles.device(), options: options)
        let run = try await SMPCtl.run(
            ["upgrade", app.path, "--mode", "confirm-only", "--json", "-c", served.connection + "?baud=1000000&timeout=1&retries=6"], timeout: 90)
        assertExit(run, 0)
        let done = try XCTUnwrap(try jsonLines(run).last)
        XCTAssertEqual(done["uploads"]?[0]?["match"]?.bool, true)
        let group = await served.device.group(.image) as? ImageGroup
        let running = try XCTUnwrap(group).contents(image: 0, slot: 0)
        XCTAssertEqual(running, [UInt8](try Data(contentsOf: URL(fileURLWithPath: app.path))))
    }
}
