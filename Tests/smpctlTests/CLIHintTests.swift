import SMP
import SMPFirmware
import SMPSimulator
import XCTest
@testable import smpctl

/// The hints whose wording names smpctl's commands and options live in the CLI, not the library.
final class CLIHintTests: XCTestCase {
    private func request(_ group: SMPGroup, _ command: UInt8, _ operation: SMPOperation = .read) -> SMPRequestSummary {
        SMPRequestSummary(SMPRequest(group: group, command: command, operation: operation, payload: [:]))
    }

    func testTheRecoveryHintNamesTheOptionOrTheMissingCommandAndTheReset() {
        let missing = MCUbootRecoveryOptions.hint(for: request(.statistics, 1))
        XCTAssertTrue(missing.contains("no such command") && missing.contains("`smpctl os reset`"), missing)
        let optional = MCUbootRecoveryOptions.hint(for: request(.os, OSCommandID.echo, .write))
        XCTAssertTrue(optional.contains("CONFIG_BOOT_MGMT_ECHO") && optional.contains("`smpctl os reset`"), optional)
    }

    func testATimeoutAndAStaleUploadNameTheCommandLine() {
        let timeout = SMPError.timeout(request(.os, OSCommandID.echo, .write), after: .seconds(3), attempts: 1, lastDiscarded: nil, elapsed: .seconds(3))
        XCTAssertEqual(CLIError(timeout).hint, "check that the device is powered, reachable and running an SMP server; a slow device may need a longer --timeout")
        XCTAssertEqual(
            CLIError(TransferVerificationError.staleUpload(offset: 10, firstChunkEnd: 5)).hint,
            "close the device's open file (smpctl fs close) and run the command again")
    }

    func testALibraryNextStepIsNamedAsSmpctlsCommand() {
        let gone = SMPTransportError(.notFound, "serial:/dev/ttyACM9: no such serial port", hint: "serial ports present: /dev/ttyACM0", nextStep: .listSerialPorts)
        XCTAssertEqual(gone.advice, "serial ports present: /dev/ttyACM0; list the serial ports to tell them apart")
        XCTAssertEqual(CLIError(gone).hint, "serial ports present: /dev/ttyACM0; `smpctl ports` lists them")
        let clock = SMPError.device(.groupError(.os(.rtcNotSet)), request: request(.os, OSCommandID.dateTime))
        XCTAssertEqual(CLIError(clock).hint, "set it with `smpctl os datetime --set now`")
        let slot = UpgradeError(stage: "upload", step: "upload", underlying: CancellationError(), hint: "the upload slot is in use", nextStep: .freeUploadSlot)
        XCTAssertEqual(
            UpgradeFailure.cliError(slot, file: "app.bin").hint, "the upload slot is in use; `smpctl image list` shows it, and `smpctl image erase` or a reset frees it")
        let unchecked = UpgradeError(stage: "verify", step: "verify-running", underlying: UpgradeVerificationError("not running"), nextStep: .listSUITManifests)
        XCTAssertEqual(UpgradeFailure.cliError(unchecked, file: "app.suit").hint, "run `smpctl suit manifests` to see the device's state")
    }

    /// Ctrl-C during an upload MCUboot's serial recovery takes: the recovery restarts uploads at
    /// offset 0 and slot 0 is incomplete, so the hint says not to reset and that the same
    /// command writes the image again; an application upload keeps the partial upload.
    func testAnInterruptedRecoveryUploadIsNotSaidToResume() throws {
        let bytes = SimulatedImageHeader.soundImageFile(version: (2, 0, 0, 0), body: [UInt8](repeating: 7, count: 64))
        let image = try MCUbootUpgradeImage(PackageImage(image: 0, slot: nil, target: .application, fileName: "app.bin", bytes: bytes))
        let slot = ImageSlotState(image: 0, slot: 0, version: "1.0.0", hash: [UInt8](repeating: 1, count: 32))
        let parameters = MCUmgrParameters(bufferSize: 1024, bufferCount: 1)
        let inRecovery = MCUbootDeviceState(
            parameters: parameters, mode: .unknown, slots: [slot], server: ServerRecognition(role: .serialRecovery, evidence: ["no image flagged active"]))
        let recoveryPlan = try MCUbootUpgradePlanner.plan(images: [image], device: inRecovery, options: UpgradeOptions())
        let upload = try XCTUnwrap(recoveryPlan.steps.first)
        let resume = "smpctl upgrade app.bin -c serial:/dev/ttyACM0"
        let recovery = UpgradeFailure.cliError(CancellationError(), file: "app.bin", during: upload, of: recoveryPlan, resume: resume)
        XCTAssertEqual(recovery.status, .interrupted)
        XCTAssertEqual(recovery.hint, "image 0: \(ImageUpload.interruptedRecoveryUpload): \(resume)")
        XCTAssertFalse(recovery.hint?.contains("keeps what was done") ?? true)

        var running = slot
        running.active = true
        running.confirmed = true
        let applicationPlan = try MCUbootUpgradePlanner.plan(
            images: [image], device: MCUbootDeviceState(parameters: parameters, mode: .swapUsingMove, slots: [running]), options: UpgradeOptions())
        let application = UpgradeFailure.cliError(CancellationError(), file: "app.bin", during: applicationPlan.steps[0], of: applicationPlan, resume: resume)
        XCTAssertEqual(application.hint, "the device keeps what was done; the same command continues from there: \(resume)")

        let progress = UploadProgress(acknowledged: 4096, total: 8192, bytesPerSecond: 1000, chunksSent: 4, bytesSent: 4096)
        XCTAssertEqual(
            ImageUploadFailure.cliError(CancellationError(), progress, command: "smpctl image upload app.bin", serialRecovery: true).hint,
            "\(ImageUpload.interruptedRecoveryUpload): smpctl image upload app.bin")
        XCTAssertEqual(
            ImageUploadFailure.cliError(CancellationError(), progress, command: "smpctl image upload app.bin").hint,
            "the device keeps the partial upload; the same command resumes it: smpctl image upload app.bin")
    }
}
