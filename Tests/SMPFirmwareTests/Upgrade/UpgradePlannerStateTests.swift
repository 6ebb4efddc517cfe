import SMP
import XCTest
@testable import SMPFirmware

/// Plans that depend on what the device already holds: present, running, pending, reverting,
/// older versions, unknown image numbers.
final class UpgradePlannerStateTests: XCTestCase {
    private typealias F = PlannerFixtures
    private let newImage = F.image(version: "2.0.0", tag: 2)

    private func plan(
        _ slots: [ImageSlotState], mode: UpgradeMode = .testAndConfirm, images: [MCUbootUpgradeImage]? = nil, noDowngrade: Bool = false,
        refuseOlder: Bool = false
    ) throws -> MCUbootUpgradePlan {
        try MCUbootUpgradePlanner.plan(
            images: images ?? [newImage], device: F.device(slots, noDowngrade: noDowngrade),
            options: UpgradeOptions(mode: mode, refuseOlder: refuseOlder))
    }

    func testARunningConfirmedImageLeavesNothingToDo() throws {
        let plan = try plan([F.slot(0, "2.0.0", tag: 2, "ac"), F.slot(1, "1.0.0", tag: 1)])
        XCTAssertTrue(plan.isNothingToDo)
        XCTAssertEqual(plan.decisions.map(\.action), [.running(confirmed: true)])
    }

    func testARunningUnconfirmedImageIsConfirmedWithoutAnUpload() throws {
        let slots = [F.slot(0, "2.0.0", tag: 2, "a"), F.slot(1, "1.0.0", tag: 1, "c")]
        XCTAssertEqual(F.names(try plan(slots)), ["confirm:0", "verify-confirmed:0"])
        XCTAssertEqual(F.names(try plan(slots, mode: .confirmOnly)), ["confirm:0", "verify-confirmed:0"])
        XCTAssertTrue(try plan(slots, mode: .testOnly).isNothingToDo)
    }

    func testAnUploadedUnmarkedImageIsMarkedNotSentAgain() throws {
        let plan = try plan([F.slot(0, "1.0.0", tag: 1, "ac"), F.slot(1, "2.0.0", tag: 2)])
        XCTAssertEqual(F.names(plan), ["test:0", "reset", "wait", "verify-running:0", "confirm:0", "verify-confirmed:0"])
        XCTAssertEqual(plan.decisions.map(\.action), [.alreadyUploaded(slot: 1, pending: false, permanent: false)])
    }

    func testASkippedUploadSaysWhyAndUploadAgainOverridesIt() throws {
        let slots = [F.slot(0, "1.0.0", tag: 1, "ac"), F.slot(1, "2.0.0", tag: 2, "p")]
        let skipped = try plan(slots)
        XCTAssertTrue(skipped.decisions[0].reason.hasPrefix("not sent again: the device reports the same hash for slot 1"), skipped.decisions[0].reason)
        // After MCUboot refused what the slot held: uploaded again, marked, reset.
        let again = try MCUbootUpgradePlanner.plan(images: [newImage], device: F.device(slots), options: UpgradeOptions(), uploadAgain: [0])
        XCTAssertEqual(again.decisions.map(\.action), [.upload])
        XCTAssertEqual(F.names(again), ["upload:0", "test:0", "reset", "wait", "verify-running:0", "confirm:0", "verify-confirmed:0"])
        XCTAssertTrue(again.notes.contains { $0.contains("uploaded again from offset 0") }, "\(again.notes)")
        // --restart trusts no held copy; upload-only (no reset to prove it) says how to send it anyway.
        var restart = UpgradeOptions()
        restart.upload.restart = true
        XCTAssertEqual(try MCUbootUpgradePlanner.plan(images: [newImage], device: F.device(slots), options: restart).decisions.map(\.action), [.upload])
        let uploadOnly = try plan(slots, mode: .uploadOnly)
        XCTAssertTrue(uploadOnly.decisions[0].reason.contains("`restart` sends the file again"), uploadOnly.decisions[0].reason)
        XCTAssertTrue(uploadOnly.nothingToDo.hasSuffix("(not proven until it boots; `restart` sends it again)"), uploadOnly.nothingToDo)
        // A front end's spelling of the setting replaces the library's, in the reason and the summary.
        var spelled = UpgradeOptions(mode: .uploadOnly)
        spelled.settingNames.restart = "--again"
        let named = try MCUbootUpgradePlanner.plan(images: [newImage], device: F.device(slots), options: spelled)
        XCTAssertTrue(named.decisions[0].reason.contains("--again sends the file again"), named.decisions[0].reason)
        XCTAssertTrue(named.nothingToDo.hasSuffix("--again sends it again)"), named.nothingToDo)
        // Another image number is not affected.
        let other = try MCUbootUpgradePlanner.plan(images: [newImage], device: F.device(slots), options: UpgradeOptions(), uploadAgain: [1])
        XCTAssertEqual(other.decisions.map(\.action), [.alreadyUploaded(slot: 1, pending: true, permanent: false)])
    }

    func testAnImageAlreadyMarkedForTestGoesStraightToTheReset() throws {
        let slots = [F.slot(0, "1.0.0", tag: 1, "ac"), F.slot(1, "2.0.0", tag: 2, "p")]
        XCTAssertEqual(F.names(try plan(slots)), ["reset", "wait", "verify-running:0", "confirm:0", "verify-confirmed:0"])
        // confirm-only wants it confirmed: it is confirmed once it runs.
        XCTAssertEqual(F.names(try plan(slots, mode: .confirmOnly)), ["reset", "wait", "verify-running:0", "confirm:0", "verify-confirmed:0"])
    }

    func testAnImageAlreadyMarkedPermanentNeedsOnlyTheReset() throws {
        let slots = [F.slot(0, "1.0.0", tag: 1, "ac"), F.slot(1, "2.0.0", tag: 2, "pP")]
        XCTAssertEqual(F.names(try plan(slots)), ["reset", "wait", "verify-running:0"])
        XCTAssertThrowsError(try plan(slots, mode: .testOnly)) { error in
            XCTAssertEqual(error as? UpgradePlanError, .alreadyPermanent(image: newImage))
        }
    }

    func testARevertingDeviceConfirmsItsRunningImageFirst() throws {
        let plan = try plan([F.slot(0, "1.5.0", tag: 5, "a"), F.slot(1, "1.0.0", tag: 1, "c")])
        XCTAssertEqual(F.names(plan).prefix(2), ["confirm-running:0", "upload:0"])
        XCTAssertTrue(plan.notes.contains { $0.contains("unconfirmed test image") }, "\(plan.notes)")
    }

    func testAnotherPendingImageIsReplacedWithANote() throws {
        let plan = try plan([F.slot(0, "1.0.0", tag: 1, "ac"), F.slot(1, "1.5.0", tag: 5, "p")])
        XCTAssertEqual(F.names(plan).first, "upload:0")
        XCTAssertTrue(plan.notes.contains { $0.contains("replaces the image 1.5.0") }, "\(plan.notes)")
    }

    func testOlderImagesAreRefusedWhenTheDeviceOrTheUserSaysSo() throws {
        let slots = [F.slot(0, "3.0.0", tag: 1, "ac")]
        XCTAssertEqual(F.names(try plan(slots)).first, "upload:0", "a swap device takes a downgrade")
        for (noDowngrade, refuseOlder) in [(true, false), (false, true)] {
            XCTAssertThrowsError(try plan(slots, noDowngrade: noDowngrade, refuseOlder: refuseOlder)) { error in
                guard case .notNewer(_, let running, _)? = error as? UpgradePlanError else { return XCTFail("\(error)") }
                XCTAssertEqual(running, "3.0.0")
            }
        }
    }

    func testAnImageNumberTheDeviceLacksIsAnError() {
        XCTAssertThrowsError(try plan([F.slot(0, "1.0.0", tag: 1, "ac")], images: [F.image(2, version: "2.0.0", tag: 2)])) { error in
            XCTAssertEqual(error as? UpgradePlanError, .unknownImage(image: 2, fileName: "img2-2.bin", listed: [0]))
        }
    }
}
