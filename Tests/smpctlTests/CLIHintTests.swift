import SMP
import SMPFirmware
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
}
