import SMP
import SMPFirmware
import SMPSimulator
import Synchronization
import XCTest

/// `FirmwareUpgrade.run` in-process against the virtual device: each upgrade mode on a swap-mode
/// device, and an interrupted upload resumed by the next run. Asserts on the typed events and report.
final class FirmwareUpgradeModeTests: XCTestCase {
    private typealias Sim = SimulatedUpgradeDevice

    func testTestAndConfirmTestsResetsChecksAndConfirmsThenARerunHasNothingToDo() async throws {
        let served = try await serveUpgradeDevice(Sim.mcuboot())
        let content = UpgradeContent([try Sim.image()], with: .mcuboot)
        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(content, on: served, options: quickOptions(), events: events)

        let steps = ["upload", "test", "reset", "wait", "verify-running", "confirm", "verify-confirmed"]
        XCTAssertEqual(events.startedSteps, steps)
        XCTAssertEqual(events.finishedSteps, steps)
        XCTAssertEqual(report.steps.map(\.step.name), steps)
        let state = try XCTUnwrap(events.inspected.first as? MCUbootDeviceState)
        XCTAssertEqual(state.mode, .swapUsingMove)
        XCTAssertEqual(state.slots.map(\.brief), ["0/0 1.0.0 ac"])
        let plan = try XCTUnwrap(events.plans.first as? MCUbootUpgradePlan)
        XCTAssertEqual(plan.decisions.map(\.action), [.upload])
        let last = try XCTUnwrap(events.progress.last)
        XCTAssertEqual(last.upload.fileName, "app.bin")
        XCTAssertEqual(last.progress.acknowledged, last.progress.total)
        XCTAssertEqual(report.uploads.count, 1)
        XCTAssertNil(report.uploads.first?.progress.resumedFrom)
        let mcuboot = try XCTUnwrap(report as? MCUbootUpgradeReport)
        XCTAssertEqual(mcuboot.finalState.map(\.brief), ["0/0 2.0.0 ac", "0/1 1.0.0 "])
        XCTAssertEqual(report.finalImages?.count, 2)
        XCTAssertEqual(report.summary, "test-and-confirm")
        XCTAssertEqual(report.advice { "\($0)" }, [])
        let resets = await served.device.resetCount
        XCTAssertEqual(resets, 1)

        let again = RecordedUpgradeEvents()
        let rerun = try await runUpgrade(content, on: served, options: quickOptions(), events: again)
        XCTAssertTrue(rerun.plan.isNothingToDo)
        XCTAssertEqual(again.startedSteps, [])
        XCTAssertEqual(rerun.plan.nothingToDoBrief, "already running 2.0.0")
        XCTAssertEqual(rerun.nothingToDo, "the device already runs this firmware")
    }

    func testConfirmOnlyConfirmsBeforeTheReset() async throws {
        let served = try await serveUpgradeDevice(Sim.mcuboot())
        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(
            UpgradeContent([try Sim.image()], with: .mcuboot), on: served, options: quickOptions(.confirmOnly), events: events)
        XCTAssertEqual(events.startedSteps, ["upload", "confirm", "reset", "wait", "verify-running"])
        XCTAssertEqual(report.finalImages?.first?.brief, "0/0 2.0.0 ac")
    }

    func testTestOnlyLeavesTheImageUnconfirmedAndSaysSo() async throws {
        let served = try await serveUpgradeDevice(Sim.mcuboot())
        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(
            UpgradeContent([try Sim.image()], with: .mcuboot), on: served, options: quickOptions(.testOnly), events: events)
        XCTAssertEqual(events.startedSteps, ["upload", "test", "reset", "wait", "verify-running"])
        XCTAssertEqual(report.finalImages?.first?.brief, "0/0 2.0.0 a")
        XCTAssertEqual(report.advice { "\($0)" }, ["the new firmware must confirm itself, or the next reset reverts it"])
    }

    func testUploadOnlyUploadsWithoutMarkOrReset() async throws {
        let served = try await serveUpgradeDevice(Sim.mcuboot())
        let events = RecordedUpgradeEvents()
        let image = try Sim.image()
        let report = try await runUpgrade(
            UpgradeContent([image], with: .mcuboot), on: served, options: quickOptions(.uploadOnly), events: events)
        XCTAssertEqual(events.startedSteps, ["upload"])
        XCTAssertEqual(report.finalImages?.map(\.brief), ["0/0 1.0.0 ac", "0/1 2.0.0 "])
        let advice = report.advice { step in
            guard case .testImage(let hash) = step else { return "\(step)" }
            return "test \(hash ?? "?")"
        }
        XCTAssertEqual(advice.count, 1)
        XCTAssertEqual(
            advice.first,
            "next: mark the image with `test \(image.hashHex)` (or image confirm, to keep it), then `reset the device (OS group, reset)`")
        let resets = await served.device.resetCount
        XCTAssertEqual(resets, 0)
    }

    func testAnInterruptedUploadResumesWhereItStopped() async throws {
        let served = try await serveUpgradeDevice(Sim.mcuboot())
        let content = UpgradeContent([try Sim.image(size: 96 * 1024)], with: .mcuboot)
        let client = try await openClient(served.connection)
        let running = Mutex<Task<any UpgradeReport, any Error>?>(nil)
        let stoppedAt = Mutex<UInt64>(0)
        let interrupted = FirmwareUpgrade(client: client, options: quickOptions()) { event in
            guard case .uploadProgress(_, let progress) = event, progress.acknowledged >= progress.total / 3 else { return }
            stoppedAt.withLock { if $0 == 0 { $0 = progress.acknowledged } }
            running.withLock { $0?.cancel() }
        }
        let task = Task { try await interrupted.run(content) }
        running.withLock { $0 = task }
        do {
            _ = try await task.value
            XCTFail("the upgrade was cancelled")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        let stopped = stoppedAt.withLock { $0 }
        XCTAssertGreaterThan(stopped, 0)

        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(content, on: served, options: quickOptions(), events: events)
        XCTAssertEqual(events.startedSteps.first, "upload")
        let resumed = try XCTUnwrap(report.uploads.first?.progress.resumedFrom, "the upload resumed")
        XCTAssertGreaterThanOrEqual(resumed, stopped)
        XCTAssertLessThan(resumed, report.uploads.first?.progress.total ?? 0)
        XCTAssertEqual(report.finalImages?.first?.brief, "0/0 2.0.0 ac")
    }
}
