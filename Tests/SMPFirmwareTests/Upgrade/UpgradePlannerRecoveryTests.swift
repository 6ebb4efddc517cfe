import SMP
import XCTest
@testable import SMPFirmware

/// Plans through MCUboot's serial recovery, from the application with `viaBootloader`, and for
/// devices that do not report their bootloader mode.
final class UpgradePlannerRecoveryTests: XCTestCase {
    private typealias F = PlannerFixtures
    private let recovery = ServerRecognition(role: .serialRecovery, evidence: ["no image flagged active"])

    /// A device in serial recovery listing `slots` (no flags, as MCUboot sends them).
    private func inRecovery(_ slots: [ImageSlotState]) -> MCUbootDeviceState {
        var device = F.device(slots, mode: .unknown)
        device.server = recovery
        device.parameters = MCUmgrParameters(bufferSize: 1024, bufferCount: 1)
        return device
    }

    private func ramLoad(_ version: String, tag: UInt8) -> MCUbootUpgradeImage {
        var image = F.image(version: version, tag: tag)
        image.flags = [.ramLoad]
        image.loadAddress = 0x2024_0000
        return image
    }

    func testRecoveryUploadsToSlotZeroResetsAndChecksWithoutMarks() throws {
        for mode in [UpgradeMode.testAndConfirm, .confirmOnly, .testOnly] {
            let plan = try MCUbootUpgradePlanner.plan(images: [F.image(version: "2.0.0", tag: 2)], device: inRecovery([F.slot(0, "1.0.0", tag: 1)]), options: UpgradeOptions(mode: mode))
            XCTAssertEqual(F.names(plan), ["upload:0", "reset", "wait", "verify-running:0"], "\(mode)")
            XCTAssertTrue(plan.decisions[0].reason.contains("slot 0"), plan.decisions[0].reason)
            XCTAssertTrue(plan.notes.contains { $0.contains("MCUboot serial recovery answers") }, "\(plan.notes)")
        }
    }

    func testRecoveryUploadOnlyStaysInTheBootloader() throws {
        let plan = try MCUbootUpgradePlanner.plan(images: [F.image(version: "2.0.0", tag: 2)], device: inRecovery([]), options: UpgradeOptions(mode: .uploadOnly))
        XCTAssertEqual(F.names(plan), ["upload:0"])
        XCTAssertTrue(plan.notes.contains("upload-only: the device stays in serial recovery until it is reset"), "\(plan.notes)")
    }

    /// The recovery refuses marks (MGMT_ERR_ENOTSUP): after an upload-only run in it, whether the
    /// device was found there or reset into it, the next step is the reset alone, as it is for a
    /// bootloader that boots the newest image; a swap-mode device is told to mark the image.
    func testUploadOnlyAdviceThroughTheRecoveryIsTheResetNotAMark() throws {
        let image = F.image(version: "2.0.0", tag: 2)
        let options = UpgradeOptions(mode: .uploadOnly)
        func advice(_ device: MCUbootDeviceState, viaBootloader: Bool = false) throws -> [String] {
            var options = options
            options.viaBootloader = viaBootloader
            let plan = try MCUbootUpgradePlanner.plan(images: [image], device: device, options: options)
            return MCUbootUpgradeReport(plan: plan, steps: [], uploads: [], finalState: [], seconds: 1).advice { "<\($0)>" }
        }
        let reset = "<\(SMPNextStep.resetDevice)>"
        let inRecovery = try advice(inRecovery([F.slot(0, "1.0.0", tag: 1)]))
        XCTAssertEqual(inRecovery, ["next: `\(reset)` boots what MCUboot's serial recovery wrote (it takes no mark)"])
        let throughIt = try advice(F.device([F.slot(0, "1.0.0", tag: 1, "ac")]), viaBootloader: true)
        XCTAssertEqual(throughIt, inRecovery)
        let ramLoad = try advice(F.device([F.slot(0, "1.0.0", tag: 1, "ac")], mode: .ramLoad))
        XCTAssertEqual(ramLoad, ["next: `\(reset)`: the bootloader boots the newest image (it takes no mark)"])
        let swap = try advice(F.device([F.slot(0, "1.0.0", tag: 1, "ac")]))
        XCTAssertEqual(swap, ["next: mark the image with `<\(SMPNextStep.testImage(hash: image.hashHex))>` (or image confirm, to keep it), then `\(reset)`"])
    }

    /// An upload the recovery took is not resumed: an interruption during it leaves slot 0
    /// incomplete, which the plan says; other steps, and uploads to the application, continue.
    func testAnInterruptedRecoveryUploadIsNotResumed() throws {
        let image = F.image(version: "2.0.0", tag: 2)
        let recovery = try MCUbootUpgradePlanner.plan(images: [image], device: inRecovery([F.slot(0, "1.0.0", tag: 1)]), options: UpgradeOptions())
        XCTAssertEqual(recovery.installation, .serialRecovery)
        let upload = try XCTUnwrap(recovery.steps.first)
        let note = try XCTUnwrap(recovery.interruptionNote(during: upload))
        XCTAssertEqual(note, "image 0: \(ImageUpload.interruptedRecoveryUpload)")
        XCTAssertTrue(note.contains("does not resume") && note.contains("do not reset"), note)
        XCTAssertNil(recovery.interruptionNote(during: MCUbootUpgradeStep.reset))

        let application = try MCUbootUpgradePlanner.plan(images: [image], device: F.device([F.slot(0, "1.0.0", tag: 1, "ac")]), options: UpgradeOptions())
        XCTAssertEqual(application.installation, .marked)
        XCTAssertNil(application.interruptionNote(during: try XCTUnwrap(application.steps.first)))
    }

    /// A failed upload is advised by what the device does with a second one: the application
    /// resumes it, the recovery writes it again from offset 0; one that failed its check after
    /// two uploads keeps its own hint (no rerun).
    func testAFailedUploadIsAdvisedByWhetherTheDeviceResumesIt() {
        struct LinkLost: Error {}
        let upload = MCUbootUpgradeStep.upload(F.image(version: "2.0.0", tag: 2), number: 1, count: 1)
        let recovery = MCUbootUpgrader.advice(for: upload, error: LinkLost(), installation: .serialRecovery)
        XCTAssertEqual(recovery.hint, ImageUpload.interruptedRecoveryUpload)
        let application = MCUbootUpgrader.advice(for: upload, error: LinkLost(), installation: .marked)
        XCTAssertEqual(application.hint, "run the same command again: it continues where this one stopped")
        for installation in [MCUbootUpgradePlan.Installation.serialRecovery, .newestBoots] {
            let refused = MCUbootUpgrader.advice(for: upload, error: TransferVerificationError.recoveryRefused(attempts: 2), installation: installation)
            XCTAssertNil(refused.hint)
            XCTAssertNil(refused.nextStep)
        }
    }

    func testRecoveryWithAnEmptySlotStillUploads() throws {
        XCTAssertEqual(F.names(try MCUbootUpgradePlanner.plan(images: [F.image(version: "1.0.0", tag: 2)], device: inRecovery([]), options: UpgradeOptions())),
                       ["upload:0", "reset", "wait", "verify-running:0"])
    }

    func testRecoveryHoldingTheImageOnlyResetsAndChecks() throws {
        let plan = try MCUbootUpgradePlanner.plan(images: [F.image(version: "2.0.0", tag: 2)], device: inRecovery([F.slot(0, "2.0.0", tag: 2)]), options: UpgradeOptions())
        XCTAssertEqual(F.names(plan), ["reset", "wait", "verify-running:0"])
        XCTAssertEqual(plan.decisions.map(\.action), [.alreadyUploaded(slot: 0, pending: false, permanent: false)])
        let again = try MCUbootUpgradePlanner.plan(
            images: [F.image(version: "2.0.0", tag: 2)], device: inRecovery([F.slot(0, "2.0.0", tag: 2)]), options: UpgradeOptions(), uploadAgain: [0])
        XCTAssertEqual(F.names(again), ["upload:0", "reset", "wait", "verify-running:0"])
    }

    func testRecoveryPicksTheDirectXIPBinaryLinkedForSlotZero() throws {
        let pair = [F.image(version: "2.0.0", tag: 3, slot: 1), F.image(version: "2.0.0", tag: 2, slot: 0)]
        let plan = try MCUbootUpgradePlanner.plan(images: pair, device: inRecovery([F.slot(0, "1.0.0", tag: 1)]), options: UpgradeOptions())
        XCTAssertEqual(plan.decisions.map(\.action), [.upload, .otherSlotVariant])
        XCTAssertEqual(plan.decisions[0].image.slot, 0)
    }

    func testRecoveryRefusesARAMLoadImageOlderThanSlotOne() throws {
        let device = inRecovery([F.slot(0, "1.0.0", tag: 1), F.slot(1, "3.0.0", tag: 3)])
        XCTAssertThrowsError(try MCUbootUpgradePlanner.plan(images: [ramLoad("2.0.0", tag: 2)], device: device, options: UpgradeOptions())) { error in
            guard case .notNewer(_, let running, let reason)? = error as? UpgradePlanError else { return XCTFail("\(error)") }
            XCTAssertEqual(running, "3.0.0 in slot 1")
            XCTAssertTrue(reason.contains("highest version"), reason)
        }
        let newer = try MCUbootUpgradePlanner.plan(images: [ramLoad("4.0.0", tag: 4)], device: device, options: UpgradeOptions())
        XCTAssertEqual(F.names(newer), ["upload:0", "reset", "wait", "verify-running:0"])
        XCTAssertEqual(newer.decisions.map(\.action), [.upload])
    }

    func testViaBootloaderEntersTheRecoveryFirst() throws {
        let device = F.device([F.slot(0, "1.0.0", tag: 1, "ac")])
        let plan = try MCUbootUpgradePlanner.plan(images: [F.image(version: "2.0.0", tag: 2)], device: device, options: UpgradeOptions(viaBootloader: true))
        XCTAssertEqual(F.names(plan), ["enter-bootloader", "wait-bootloader", "upload:0", "reset", "wait", "verify-running:0"])
        XCTAssertTrue(plan.notes.contains { $0.hasPrefix("`viaBootloader`: the application is reset") }, "\(plan.notes)")
    }

    func testViaBootloaderHasNothingToDoWhenTheApplicationRunsTheImage() throws {
        let device = F.device([F.slot(0, "2.0.0", tag: 2, "ac")])
        let plan = try MCUbootUpgradePlanner.plan(images: [F.image(version: "2.0.0", tag: 2)], device: device, options: UpgradeOptions(viaBootloader: true))
        XCTAssertTrue(plan.isNothingToDo)
        XCTAssertEqual(plan.decisions.map(\.action), [.running(confirmed: true)])
    }

    func testViaBootloaderTakesSingleSlotDevices() throws {
        let device = F.device([F.slot(0, "1.0.0", tag: 1, "ac")], mode: .singleSlot)
        XCTAssertThrowsError(try MCUbootUpgradePlanner.plan(images: [F.image(version: "2.0.0", tag: 2)], device: device, options: UpgradeOptions())) { error in
            XCTAssertTrue((error as? UpgradePlanError)?.hint?.contains("add `viaBootloader` (the application resets into it)") == true, "\(error)")
            var names = UpgradeSettingNames.library
            names.viaBootloader = "--through-recovery"
            XCTAssertTrue((error as? UpgradePlanError)?.hint(naming: names)?.contains("add --through-recovery (") == true, "\(error)")
        }
        XCTAssertEqual(F.names(try MCUbootUpgradePlanner.plan(images: [F.image(version: "2.0.0", tag: 2)], device: device, options: UpgradeOptions(viaBootloader: true))).first,
                       "enter-bootloader")
    }

    // MARK: Modes inferred from the image header

    func testRAMLoadImageOnADeviceThatDoesNotReportItsModeIsNotMarked() throws {
        let device = F.device([F.slot(0, "1.0.0", tag: 1, "ac")], mode: .unknown)
        let plan = try MCUbootUpgradePlanner.plan(images: [ramLoad("2.0.0", tag: 2)], device: device, options: UpgradeOptions())
        XCTAssertEqual(F.names(plan), ["upload:0", "reset", "wait", "verify-running:0"])
        XCTAssertEqual(plan.notes.filter { $0.contains("ram-load") }.count, 1, "\(plan.notes)")
        XCTAssertTrue(plan.notes[0].contains("RAM_LOAD") && plan.notes[0].contains("0x20240000"), plan.notes[0])
        XCTAssertThrowsError(try MCUbootUpgradePlanner.plan(images: [ramLoad("0.9.0", tag: 2)], device: device, options: UpgradeOptions())) { error in
            guard case .notNewer(_, let running, _)? = error as? UpgradePlanError else { return XCTFail("\(error)") }
            XCTAssertEqual(running, "1.0.0")
        }
    }

    func testAReportedModeWinsOverTheHeader() throws {
        let device = F.device([F.slot(0, "1.0.0", tag: 1, "ac")], mode: .swapUsingMove)
        XCTAssertEqual(F.names(try MCUbootUpgradePlanner.plan(images: [ramLoad("2.0.0", tag: 2)], device: device, options: UpgradeOptions())).prefix(2),
                       ["upload:0", "test:0"])
    }

    func testROMFixedImagesAreTestedAsDirectXIPWithRevert() throws {
        var image = F.image(version: "2.0.0", tag: 2)
        image.flags = [.romFixed]
        let plan = try MCUbootUpgradePlanner.plan(images: [image], device: F.device([F.slot(0, "1.0.0", tag: 1, "ac")], mode: .unknown), options: UpgradeOptions())
        XCTAssertEqual(F.names(plan).prefix(2), ["upload:0", "test:0"])
        XCTAssertTrue(plan.notes.contains { $0.contains("ROM_FIXED") }, "\(plan.notes)")
    }

    func testADeviceThatRefusedMarksGetsNone() throws {
        var device = F.device([F.slot(0, "1.0.0", tag: 1, "ac"), F.slot(1, "2.0.0", tag: 2)], mode: .unknown)
        device.refusesMarks = true
        let plan = try MCUbootUpgradePlanner.plan(images: [F.image(version: "2.0.0", tag: 2)], device: device, options: UpgradeOptions())
        XCTAssertEqual(F.names(plan), ["reset", "wait", "verify-running:0"])
        XCTAssertTrue(plan.notes.contains { $0.contains("refused to mark") }, "\(plan.notes)")
    }
}
