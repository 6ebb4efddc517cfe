import FoundationEssentials
import Logging
import SMP
import SMPFirmware
import SMPFleet
import SMPKit
import SMPSimulator
import XCTest

final class FleetUpgradeTests: XCTestCase {
    /// A device with a swap-mode image group that resets quickly.
    private static func device(slotSize: Int = 256 * 1024) -> VirtualDeviceConfiguration {
        var configuration = VirtualDeviceConfiguration()
        configuration.resetDelay = .milliseconds(20)
        configuration.images = SimulatedImageConfiguration(slotSize: slotSize)
        return configuration
    }

    /// A sound MCUboot image of version 2.0.0 with 8 KiB of body.
    private static func content() throws -> UpgradeContent {
        let body = (0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let bytes = SimulatedImageHeader.soundImageFile(version: (2, 0, 0, 0), body: body)
        return try UpgradeContent(FirmwarePackage(data: Data(bytes), name: "app-v2.bin"))
    }

    private func upgrade(_ fleet: SimulatedFleet, content: UpgradeContent, log: EventLog) async -> FleetReport {
        let options = UpgradeOptions(resetGrace: .milliseconds(300))
        return await FleetRun(targets: fleet.targets, jobs: 8).run(configuration: SMPClientConfiguration(), logger: Logger(label: "test.fleet")) { client, target, recorder in
            try await FleetUpgrade.run(
                content, options: options, client: client, reconnect: { try await SMPConnection.open(target.connection) }, recorder: recorder)
        } failure: { describedFailure($0) } events: { log.record($0) }
    }

    func testTwentyDevicesAreUpgradedOneThatRefusesFailsAndARerunSkipsTheRest() async throws {
        // Device 8's slots are too small for the image: it refuses the upload.
        var configurations = Array(repeating: Self.device(), count: 20)
        configurations[7] = Self.device(slotSize: 4096)
        let fleet = try await startFleet(configurations)
        let content = try Self.content()

        let log = EventLog()
        let first = await upgrade(fleet, content: content, log: log)
        XCTAssertEqual(first.counts, [.succeeded: 19, .failed: 1], "\(first.devices.compactMap(\.failure))")
        let refused = first.devices[7]
        XCTAssertEqual(refused.outcome, .failed)
        XCTAssertTrue(refused.failure?.message.contains("INVALID_IMAGE_TOO_LARGE") == true, "\(String(describing: refused.failure))")
        XCTAssertEqual(refused.phases.last?.name, "upload")
        XCTAssertEqual(refused.before?.first?.version, "1.0.0")
        for device in first.devices where device.index != 7 {
            XCTAssertEqual(device.outcome, .succeeded, "\(device.target.name): \(String(describing: device.failure))")
            XCTAssertEqual(device.before?.map(\.version), ["1.0.0"])
            let running = device.after?.first { $0.active }
            XCTAssertEqual(running?.version, "2.0.0")
            XCTAssertEqual(running?.confirmed, true)
            let phases = device.phases.map(\.name)
            XCTAssertEqual(Array(phases.prefix(3)), ["connect", "inspect", "upload"], "\(phases)")
            for phase in ["test", "reset", "wait", "confirm"] { XCTAssertTrue(phases.contains(phase), "\(phase) in \(phases)") }
            XCTAssertNil(device.note)
        }
        let uploaded = log.all.contains { event in
            if case .progress(_, let sent, let total, _) = event { return sent == total && total > 8192 }
            return false
        }
        XCTAssertTrue(uploaded, "the end of each upload is reported")
        for (index, device) in fleet.devices.enumerated() {
            let resets = await device.resetCount
            XCTAssertEqual(resets, index == 7 ? 0 : 1, "device \(index + 1)")
        }

        let again = await upgrade(fleet, content: content, log: EventLog())
        XCTAssertEqual(again.counts, [.skipped: 19, .failed: 1])
        for device in again.devices where device.index != 7 {
            XCTAssertEqual(device.outcome, .skipped)
            XCTAssertEqual(device.note, "already running 2.0.0")
            XCTAssertEqual(device.phases.map(\.name), ["connect", "inspect"])
            XCTAssertEqual(device.after?.first { $0.active }?.version, "2.0.0")
        }
        for (index, device) in fleet.devices.enumerated() {
            let resets = await device.resetCount
            XCTAssertEqual(resets, index == 7 ? 0 : 1, "a skipped device is not reset: device \(index + 1)")
        }
    }
}
