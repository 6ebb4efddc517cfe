import Foundation
import SMPSimulator
import XCTest

/// Images are checked before they are sent (issue 13, items 6 and 7): `image upload` refuses what
/// `upgrade` refuses, and an upgrade never trusts a slot only because it reports the file's hash.
final class ImageUploadValidationTests: XCTestCase {
    /// The imgtool image `app-v2` with `change` applied, written to a temporary file.
    private func damaged(_ change: (inout [UInt8]) -> Void) throws -> (path: String, original: UpgradeFiles.File) {
        let app = try UpgradeFiles.file("app-v2")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: app.path)))
        change(&bytes)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-damaged-\(UUID().uuidString).bin")
        try Data(bytes).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return (url.path, app)
    }

    /// The offset of the unprotected TLV area: header size plus image size (plus protected TLVs: none here).
    private func tlvOffset(_ bytes: [UInt8]) -> Int {
        Int(bytes[8]) | Int(bytes[9]) << 8 + (Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24)
    }

    /// The device with image hash checks at boot, as MCUboot does.
    private var checkingDevice: VirtualDeviceConfiguration {
        var configuration = UpgradeFiles.device()
        configuration.images?.checksImageHash = true
        return configuration
    }

    func testDamagedImagesAreRefusedBeforeAnythingIsSent() async throws {
        let served = try await startDevice(checkingDevice)
        let cases: [(name: String, change: (inout [UInt8]) -> Void, message: String)] = [
            ("truncated", { $0.removeLast(200) }, "truncated image"),
            ("hash mismatch", { $0[$0.count / 2] ^= 0xFF }, "image hash mismatch"),
            ("wrong magic", { $0[0] = 0x00 }, "not an MCUboot image: magic"),
            ("TLV area magic", { bytes in bytes[self.tlvOffset(bytes)] ^= 0x55 }, "TLV area magic"),
            ("TLV past its area", { bytes in
                let start = self.tlvOffset(bytes)
                bytes[start + 2] = 8  // the area claims 8 bytes: its first TLV runs past its end
                bytes[start + 3] = 0
            }, "runs past the end"),
        ]
        for item in cases {
            let (path, _) = try damaged(item.change)
            let run = try await SMPCtl.run(["image", "upload", path, "-c", served.endpoint])
            assertExit(run, 65)
            assertStderr(run, contains: item.message, "nothing was sent", "--force")
            XCTAssertFalse(run.stdout.contains("image test"), "\(item.name): no advice to test a damaged image\n\(run)")
            let json = try await SMPCtl.run(["image", "upload", path, "-c", served.endpoint, "--json"])
            _ = try assertErrorDocument(json, name: "data-error", code: 65)
        }
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 1.0.0 ac"], "no byte reached the device")
    }

    func testForceSendsADamagedImageWithAWarning() async throws {
        let served = try await startDevice(checkingDevice)
        let (path, app) = try damaged { $0[$0.count / 2] ^= 0xFF }
        let run = try await SMPCtl.run(["image", "upload", path, "--force", "-c", served.endpoint])
        assertExit(run, 0)
        assertStderr(run, contains: "warning: --force", "image hash mismatch")
        XCTAssertTrue(run.stdout.contains("warning: sent with --force"), run.stdout)
        XCTAssertFalse(run.stdout.contains("next: smpctl image test"), run.stdout)
        let holds = try await slotHolds(served, slot: 1, file: path)
        XCTAssertTrue(holds)
        let listed = try await listedHash(served, slot: 1)
        XCTAssertEqual(listed, app.hash, "the slot reports the file's TLV hash, not the hash of its content")
    }

    /// Item 7: slot 1 holds other bytes with the same hash TLV. The plan skips the upload on the
    /// device's word, says so, and when MCUboot refuses the slot at boot, uploads again from 0.
    func testAnUpgradeSkippingOnTheReportedHashUploadsAgainWhenTheImageDoesNotBoot() async throws {
        let served = try await startDevice(checkingDevice)
        let (path, app) = try damaged { $0[$0.count / 2] ^= 0xFF }
        assertExit(try await SMPCtl.run(["image", "upload", path, "--force", "-c", served.endpoint]), 0)

        let dryRun = try await SMPCtl.run(["upgrade", app.path, "--dry-run", "-c", served.endpoint])
        assertExit(dryRun, 0)
        XCTAssertTrue(dryRun.stdout.contains("not sent again: the device reports the same hash for slot 1"), "\(dryRun)")

        let run = try await SMPCtl.run(["upgrade", app.path, "-c", served.endpoint])
        assertExit(run, 0)
        assertStderr(run, contains: "not running after the reset", "uploading it again from offset 0")
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 2.0.0 ac", "0/1 1.0.0 "])
        let holds = try await slotHolds(served, slot: 0, file: app.path)
        XCTAssertTrue(holds, "the running slot holds exactly the file")
        let resets = await served.device.resetCount
        XCTAssertEqual(resets, 2, "one reset found the copy refused, the second booted the upload")
    }

    /// Upload-only has no reset to prove a skip: the plan says so, and --restart sends the file again.
    func testUploadOnlySaysTheSkipIsUnprovenAndRestartSendsTheFile() async throws {
        let served = try await startDevice(checkingDevice)
        let (path, app) = try damaged { $0[$0.count / 2] ^= 0xFF }
        assertExit(try await SMPCtl.run(["image", "upload", path, "--force", "-c", served.endpoint]), 0)
        let skipped = try await SMPCtl.run(["upgrade", app.path, "--mode", "upload-only", "-c", served.endpoint])
        assertExit(skipped, 0)
        XCTAssertTrue(skipped.stdout.contains("nothing to do; the device reports this firmware's hash for slot 1 (not proven"), "\(skipped)")
        XCTAssertFalse(skipped.stdout.contains("already runs"), "\(skipped)")
        let stillDamaged = try await slotHolds(served, slot: 1, file: path)
        XCTAssertTrue(stillDamaged)

        let restarted = try await SMPCtl.run(["upgrade", app.path, "--mode", "upload-only", "--restart", "-c", served.endpoint])
        assertExit(restarted, 0)
        XCTAssertTrue(restarted.stderr.contains("again from offset 0 (--restart)"), "\(restarted)")
        let holds = try await slotHolds(served, slot: 1, file: app.path)
        XCTAssertTrue(holds, "slot 1 now holds exactly the file")
    }
}
