import CBOR
import FoundationEssentials
import SMP
import SMPFirmware
import SMPSimulator
import SMPTestSupport
import XCTest

/// `FirmwareUpgrade.run` in-process with a SUIT package against the virtual SUIT device: the
/// envelope, the resource the device asks for, its restart and the digest check, through the same
/// events and report as MCUboot.
final class FirmwareUpgradeSUITTests: XCTestCase {
    func testAPackageIsInstalledWithItsResourceAndARerunHasNothingToDo() async throws {
        var configuration = VirtualDeviceConfiguration()
        configuration.makeSUITDevice()
        configuration.resetDelay = .milliseconds(20)
        let served = try await serveUpgradeDevice(configuration)
        let (envelope, digest) = SUITTestEnvelope.make(sequence: 3, uris: ["file://app.bin"])
        let app = [UInt8](repeating: 0xA5, count: 3000)
        let manifest = #"{"format-version": 1, "files": [{"type": "suit-envelope", "file": "root.suit"}, {"type": "bin", "file": "app.bin"}]}"#
        let package = try FirmwarePackage(
            data: try PackageFixtures.package(manifest: manifest, files: [("root.suit", envelope), ("app.bin", app)]), name: "dfu_suit.zip")
        let content = try UpgradeContent(package)
        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(content, on: served, options: quickOptions(), events: events)

        XCTAssertEqual(events.startedSteps, ["upload-envelope", "serve-resources", "wait", "verify-manifest"])
        XCTAssertTrue(events.inspected.first is SUITDeviceState)
        let plan = try XCTUnwrap(events.plans.first as? SUITUpgradePlan)
        XCTAssertEqual(plan.digest, digest)
        XCTAssertEqual(events.requests.map(\.resource), ["file://app.bin"])
        XCTAssertEqual(events.requests.first?.upload.size, app.count)
        XCTAssertEqual(Set(events.progress.map(\.upload.fileName)), ["root.suit", "app.bin"])
        let suit = try XCTUnwrap(report as? SUITUpgradeReport)
        XCTAssertEqual(suit.resourcesServed, ["file://app.bin"])
        XCTAssertTrue(suit.finalState.contains { $0.state.digest == digest && $0.state.sequenceNumber == 3 })
        XCTAssertNil(report.finalImages)
        XCTAssertEqual(report.summary, "SUIT")
        XCTAssertEqual(report.uploads.count, 2, "the envelope and the resource")

        let again = RecordedUpgradeEvents()
        let rerun = try await runUpgrade(content, on: served, options: quickOptions(), events: again)
        XCTAssertTrue(rerun.plan.isNothingToDo)
        XCTAssertEqual(again.startedSteps, [])
        XCTAssertTrue(rerun.plan.nothingToDoBrief.hasPrefix("already installed as "), rerun.plan.nothingToDoBrief)
    }
}
