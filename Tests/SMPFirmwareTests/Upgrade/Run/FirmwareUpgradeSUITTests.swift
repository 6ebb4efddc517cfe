import CBOR
import FoundationEssentials
import SMP
import SMPFirmware
import SMPSimulator
import XCTest

/// `FirmwareUpgrade.run` in-process with a SUIT package against the virtual SUIT device: the
/// envelope, the resource the device asks for, its restart and the digest check, through the same
/// events and report as MCUboot.
final class FirmwareUpgradeSUITTests: XCTestCase {
    private static func encode(_ item: CBOR) -> [UInt8] {
        var writer = CBORWriter()
        writer.write(item)
        return writer.bytes
    }

    /// An envelope the virtual device accepts, whose manifest names `file://app.bin`; and its digest.
    private static func envelope(sequence: UInt64) -> (bytes: [UInt8], digest: [UInt8]) {
        // suit-install (key 9): a command sequence that fetches the URI (suit-parameter-uri 21).
        let install = encode(.array([.unsigned(21), .text("file://app.bin")]))
        let manifest = encode(.map([.unsigned(1): .unsigned(1), .unsigned(2): .unsigned(sequence), .unsigned(9): .bytes(install)]))
        let digest = SHA256Hash.digest(encode(.bytes(manifest)))
        let wrapper = encode(.array([.bytes(encode(.array([.int(-16), .bytes(digest)])))]))
        return (encode(.tagged(107, .map([.unsigned(2): .bytes(wrapper), .unsigned(3): .bytes(manifest)]))), digest)
    }

    func testAPackageIsInstalledWithItsResourceAndARerunHasNothingToDo() async throws {
        var configuration = VirtualDeviceConfiguration()
        configuration.makeSUITDevice()
        configuration.resetDelay = .milliseconds(20)
        let served = try await serveUpgradeDevice(configuration)
        let (envelope, digest) = Self.envelope(sequence: 3)
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
