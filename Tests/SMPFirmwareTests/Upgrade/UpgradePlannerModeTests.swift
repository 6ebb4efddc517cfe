import SMP
import XCTest
@testable import SMPFirmware

/// The plan for one new image on a swap-mode device, in each upgrade mode, and the bootloader
/// modes that change how images are marked.
final class UpgradePlannerModeTests: XCTestCase {
    private typealias F = PlannerFixtures
    private let runningOne = F.device([F.slot(0, "1.0.0", tag: 1, "ac")])
    private let newImage = F.image(version: "2.0.0", tag: 2)

    private func plan(_ mode: UpgradeMode, device: MCUbootDeviceState? = nil, erase: Bool = false) throws -> MCUbootUpgradePlan {
        try MCUbootUpgradePlanner.plan(images: [newImage], device: device ?? runningOne, options: UpgradeOptions(mode: mode, eraseAppSettings: erase))
    }

    func testTestAndConfirmTestsResetsVerifiesThenConfirms() throws {
        let plan = try plan(.testAndConfirm)
        XCTAssertEqual(F.names(plan), ["upload:0", "test:0", "reset", "wait", "verify-running:0", "confirm:0", "verify-confirmed:0"])
        XCTAssertEqual(plan.decisions.map(\.action), [.upload])
        XCTAssertEqual(plan.notes, [])
    }

    func testConfirmOnlyConfirmsBeforeTheReset() throws {
        XCTAssertEqual(F.names(try plan(.confirmOnly)), ["upload:0", "confirm:0", "reset", "wait", "verify-running:0"])
    }

    func testTestOnlyLeavesTheConfirmToTheFirmware() throws {
        let plan = try plan(.testOnly)
        XCTAssertEqual(F.names(plan), ["upload:0", "test:0", "reset", "wait", "verify-running:0"])
        XCTAssertTrue(plan.notes.contains { $0.contains("must confirm itself") }, "\(plan.notes)")
    }

    func testUploadOnlyUploadsAndStops() throws {
        XCTAssertEqual(F.names(try plan(.uploadOnly)), ["upload:0"])
        XCTAssertEqual(F.names(try plan(.uploadOnly, erase: true)), ["upload:0", "erase-settings"])
    }

    func testEraseSettingsComesAfterTheUploadAndBeforeTheMark() throws {
        XCTAssertEqual(F.names(try plan(.testAndConfirm, erase: true)).prefix(3), ["upload:0", "erase-settings", "test:0"])
    }

    func testOverwriteOnlyAlwaysConfirmsAndNeedsNoConfirmAfterTheReset() throws {
        let device = F.device([F.slot(0, "1.0.0", tag: 1, "ac")], mode: .overwriteOnly)
        for mode in [UpgradeMode.testAndConfirm, .confirmOnly, .testOnly] {
            XCTAssertEqual(F.names(try plan(mode, device: device)), ["upload:0", "confirm:0", "reset", "wait", "verify-running:0"], "\(mode)")
        }
    }

    func testModesWithoutMarksUploadAndReset() throws {
        for mode in [MCUbootMode.directXIP, .ramLoad] {
            let plan = try plan(.testAndConfirm, device: F.device([F.slot(0, "1.0.0", tag: 1, "ac")], mode: mode))
            XCTAssertEqual(F.names(plan), ["upload:0", "reset", "wait", "verify-running:0"], "\(mode)")
            XCTAssertEqual(plan.installation, .newestBoots)
            XCTAssertTrue(plan.notes.contains { $0.contains("boots the newest image") }, "\(plan.notes)")
        }
    }

    /// Firmware-loader mode: the application (one slot, image 0 slot 0) takes no upload; it is
    /// reset into the loader, which writes slot 0, and nothing is marked.
    func testFirmwareLoaderModeEntersTheLoaderFromTheApplication() throws {
        for mode in [UpgradeMode.testAndConfirm, .confirmOnly, .testOnly] {
            let plan = try plan(mode, device: F.device([F.slot(0, "1.0.0", tag: 1, "ac")], mode: .firmwareLoader))
            XCTAssertEqual(F.names(plan), ["enter-loader", "wait-loader", "upload:0", "reset", "wait", "verify-running:0"], "\(mode)")
            XCTAssertEqual(plan.installation, .firmwareLoader)
            XCTAssertEqual(plan.decisions.map(\.action), [.upload])
            XCTAssertTrue(plan.notes[0].contains("firmware loader") && plan.notes[0].contains("nothing is marked"), "\(plan.notes)")
            XCTAssertFalse(plan.notes.contains { $0.contains("newest image") || $0.contains("test-and-confirm") }, "\(plan.notes)")
        }
        let uploadOnly = try plan(.uploadOnly, device: F.device([F.slot(0, "1.0.0", tag: 1, "ac")], mode: .firmwareLoader))
        XCTAssertEqual(F.names(uploadOnly), ["enter-loader", "wait-loader", "upload:0"])
        let via = try MCUbootUpgradePlanner.plan(
            images: [newImage], device: F.device([F.slot(0, "1.0.0", tag: 1, "ac")], mode: .firmwareLoader), options: UpgradeOptions(viaBootloader: true))
        XCTAssertEqual(F.names(via).prefix(2), ["enter-loader", "wait-loader"], "no serial recovery in firmware-loader mode")
        XCTAssertTrue(via.notes.contains { $0.hasPrefix("`viaBootloader`: MCUboot in firmware-loader mode has no serial recovery") }, "\(via.notes)")
    }

    /// The loader answers (image 0 runs from slot 1, the application sits in slot 0): the upload
    /// comes first; the application's slot holding the image already is not sent again.
    func testFirmwareLoaderModeUploadsAtOnceWhenTheLoaderAnswers() throws {
        let loader = F.device([F.slot(0, "1.0.0", tag: 1), F.slot(1, "0.1.0", tag: 9, "ac")], mode: .firmwareLoader)
        XCTAssertTrue(loader.runsFirmwareLoader)
        XCTAssertEqual(F.names(try plan(.testAndConfirm, device: loader)), ["upload:0", "reset", "wait", "verify-running:0"])
        let holding = F.device([F.slot(0, "2.0.0", tag: 2), F.slot(1, "0.1.0", tag: 9, "ac")], mode: .firmwareLoader)
        let plan = try plan(.testAndConfirm, device: holding)
        XCTAssertEqual(F.names(plan), ["reset", "wait", "verify-running:0"])
        XCTAssertEqual(plan.decisions.map(\.action), [.alreadyUploaded(slot: 0, pending: false, permanent: false)])
    }

    func testFirmwareLoaderModeRunningTheImageIsNothingToDo() throws {
        let plan = try plan(.testAndConfirm, device: F.device([F.slot(0, "2.0.0", tag: 2, "ac")], mode: .firmwareLoader))
        XCTAssertEqual(plan.steps, [])
        XCTAssertEqual(plan.decisions.map(\.action), [.running(confirmed: true)])
    }

    func testFirmwareLoaderModeUpdatesImage0Only() {
        let device = F.device([F.slot(0, "1.0.0", tag: 1, "ac")], mode: .firmwareLoader)
        let other = F.image(1, version: "2.0.0", tag: 3)
        XCTAssertThrowsError(try MCUbootUpgradePlanner.plan(images: [newImage, other], device: device, options: UpgradeOptions())) { error in
            XCTAssertEqual(error as? UpgradePlanError, .unknownImage(image: 1, fileName: other.fileName, listed: [0]))
        }
    }

    func testAnUnknownModeIsTreatedAsASwapModeWithANote() throws {
        let plan = try plan(.testAndConfirm, device: F.device([F.slot(0, "1.0.0", tag: 1, "ac")], mode: .unknown))
        XCTAssertEqual(F.names(plan).first, "upload:0")
        XCTAssertTrue(F.names(plan).contains("test:0"))
        XCTAssertTrue(plan.notes.contains { $0.contains("assuming a swap mode") }, "\(plan.notes)")
    }

    func testSingleSlotModesCannotBeUpgradedFromTheApplication() {
        for mode in [MCUbootMode.singleSlot, .singleSlotRAMLoad] {
            XCTAssertThrowsError(try plan(.testAndConfirm, device: F.device([F.slot(0, "1.0.0", tag: 1, "ac")], mode: mode))) { error in
                XCTAssertEqual(error as? UpgradePlanError, .singleSlot(mode))
                XCTAssertNotNil((error as? UpgradePlanError)?.hint)
            }
        }
    }

    func testAnEmptyListIsAnError() {
        XCTAssertThrowsError(try plan(.testAndConfirm, device: F.device([]))) { error in
            XCTAssertEqual(error as? UpgradePlanError, .noImagesListed)
        }
    }
}
