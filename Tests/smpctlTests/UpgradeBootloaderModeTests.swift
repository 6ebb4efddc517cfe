import Foundation
import SMPSimulator
import XCTest

/// `smpctl upgrade` against the bootloader modes that change the sequence: DirectXIP with and
/// without revert, overwrite-only, and a device that stays silent while MCUboot swaps.
final class UpgradeBootloaderModeTests: XCTestCase {
    func testDirectXIPUploadsTheBinaryForTheFreeSlotAndBootsIt() async throws {
        let package = try UpgradeFiles.file("directxip.zip")
        let (forSlot0, forSlot1) = (try UpgradeFiles.file("xip-slot0-v2"), try UpgradeFiles.file("xip-slot1-v2"))
        let served = try await startDevice(UpgradeFiles.device(mode: .directXIP))
        let run = try await SMPCtl.run(["upgrade", package.path, "--json", "-c", served.endpoint])
        assertExit(run, 0)
        let events = try jsonLines(run)
        XCTAssertEqual(startedSteps(events), ["upload", "reset", "wait", "verify-running"], "no test or confirm in plain DirectXIP")
        let plan = try XCTUnwrap(events.first { $0["event"]?.string == "plan" })
        let actions: [String] = (plan["images"]?.array ?? []).map { "\($0["slot"]?.int ?? -1):\($0["action"]?.string ?? "?")" }
        XCTAssertEqual(Set(actions), ["0:not-needed", "1:upload"])
        let group = await served.device.group(.image) as? ImageGroup
        XCTAssertEqual(try XCTUnwrap(group).activeSlot(image: 0), 1)
        let runningHash = try await listedHash(served, slot: 1)
        XCTAssertEqual(runningHash, forSlot1.hash)
        XCTAssertNotEqual(forSlot0.hash, forSlot1.hash)

        let again = try await SMPCtl.run(["upgrade", package.path, "-c", served.endpoint])
        assertExit(again, 0)
        XCTAssertTrue(again.stdout.contains("nothing to do"), "\(again)")
    }

    func testDirectXIPWithRevertTestsThenConfirms() async throws {
        let package = try UpgradeFiles.file("directxip.zip")
        let served = try await startDevice(UpgradeFiles.device(mode: .directXIPWithRevert))
        let run = try await SMPCtl.run(["upgrade", package.path, "--json", "-c", served.endpoint])
        assertExit(run, 0)
        XCTAssertEqual(startedSteps(try jsonLines(run)), ["upload", "test", "reset", "wait", "verify-running", "confirm", "verify-confirmed"])
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 1.0.0 ", "0/1 2.0.0 ac"])
    }

    func testAPlainBinaryForTheWrongDirectXIPSlotIsRefusedByTheDevice() async throws {
        let forSlot0 = try UpgradeFiles.file("xip-slot0-v2")
        let served = try await startDevice(UpgradeFiles.device(mode: .directXIP))
        let run = try await SMPCtl.run(["upgrade", forSlot0.path, "-c", served.endpoint])
        assertExit(run, 2)
        assertStderr(run, contains: "upgrade failed at step \"upload image 0", "INVALID_FLASH_ADDRESS")
    }

    func testOverwriteOnlyConfirmsAndCopies() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(UpgradeFiles.device(mode: .overwriteOnly))
        let run = try await SMPCtl.run(["upgrade", app.path, "--json", "-c", served.endpoint])
        assertExit(run, 0)
        XCTAssertEqual(startedSteps(try jsonLines(run)), ["upload", "confirm", "reset", "wait", "verify-running"])
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 2.0.0 ac"], "the secondary is erased after the copy")
    }

    func testTheWaitOutlastsASlowSwapAndIgnoresTheOldFirmwaresLastAnswers() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(UpgradeFiles.device(resetDelay: .milliseconds(400), bootTime: .milliseconds(1500)))
        let run = try await SMPCtl.run(["upgrade", app.path, "--json", "-c", served.endpoint])
        assertExit(run, 0)
        let events = try jsonLines(run)
        XCTAssertNotNil(events.first { $0["step"]?.string == "wait" && $0["status"]?.string == "done" }, run.stdout)
        let dropped = await served.device.statistics.framesWhileResetting
        XCTAssertGreaterThan(dropped, 0, "polls went unanswered while it was away")
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots.first, "0/0 2.0.0 ac")
    }

    func testADeviceThatNeverComesBackFailsAtTheWaitWithAHint() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(UpgradeFiles.device(bootTime: .seconds(30)))
        let run = try await SMPCtl.run(["upgrade", app.path, "--reset-timeout", "2", "-c", served.endpoint])
        assertExit(run, 2)
        assertStderr(run, contains: "upgrade failed at step \"wait for the device to restart\"", "did not answer within", "--reset-timeout")
    }
}
