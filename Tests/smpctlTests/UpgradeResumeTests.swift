import Foundation
import SMPSimulator
import XCTest

/// An upgrade interrupted mid-upload — by Ctrl-C or by killing the process — continues from the
/// device's offset when the same command runs again.
final class UpgradeResumeTests: XCTestCase {
    /// Every answer 40 ms late and one chunk at a time: about a second and a half for the image.
    private let slowLink = FaultInjection(delay: 1, delayDuration: .milliseconds(40))

    private func interruptedThenResumed(by signal: Int32) async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(UpgradeFiles.device(), faults: slowLink)
        let arguments = ["upgrade", app.path, "--json", "--window", "1", "-c", served.endpoint]
        let first = try BackgroundProcess(smpctl: arguments)
        addTeardownBlock { first.stop() }
        let seen = await first.waitForLine { line in
            guard line.contains("\"event\":\"progress\""), let range = line.range(of: #""acknowledged":(\d+)"#, options: .regularExpression)
            else { return false }
            return (Int(line[range].dropFirst(15)) ?? 0) > app.size / 4
        }
        XCTAssertNotNil(seen, "the upload got going\n\(first.stdout)\n\(first.stderr)")
        first.send(signal)
        let status = await first.waitForExit()
        if signal == SIGINT {
            XCTAssertEqual(status, 130, first.stderr)
            XCTAssertTrue(first.stderr.contains("upgrade interrupted during \"upload image 0"), first.stderr)
            XCTAssertTrue(first.stderr.contains("smpctl upgrade \(app.path)"), "the hint names the command\n\(first.stderr)")
        } else {
            XCTAssertTrue(first.wasKilledBySignal)
        }
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 1.0.0 ac"], "nothing marked or reset yet")

        await served.device.setFaultInjection(.none)
        let second = try await SMPCtl.run(arguments, timeout: 60)
        assertExit(second, 0)
        let done = try XCTUnwrap(try jsonLines(second).last)
        let resumedFrom = try XCTUnwrap(done["uploads"]?[0]?["resumedFrom"]?.int, "the upload resumed\n\(second)")
        XCTAssertGreaterThan(resumedFrom, app.size / 4)
        XCTAssertLessThan(try XCTUnwrap(done["uploads"]?[0]?["bytesSent"]?.int), app.size, "only the rest was sent")
        let final = try await listedSlots(served)
        XCTAssertEqual(final.first, "0/0 2.0.0 ac")
        let holds = try await slotHolds(served, slot: 0, file: app.path)
        XCTAssertTrue(holds)
    }

    func testCtrlCStopsCleanlyAndTheSameCommandResumes() async throws {
        try await interruptedThenResumed(by: SIGINT)
    }

    func testAKilledUpgradeResumes() async throws {
        try await interruptedThenResumed(by: SIGKILL)
    }
}
