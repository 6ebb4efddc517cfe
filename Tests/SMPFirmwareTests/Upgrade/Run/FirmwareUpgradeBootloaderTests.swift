import SMP
import SMPFirmware
import SMPKit
import SMPSimulator
import Synchronization
import XCTest

/// `FirmwareUpgrade.run` in-process against each bootloader mode the virtual device simulates
/// (overwrite-only, DirectXIP with and without revert, RAM load, MCUboot's serial recovery),
/// through the bootloader from the application, and across a reset that changes the link.
final class FirmwareUpgradeBootloaderTests: XCTestCase {
    private typealias Sim = SimulatedUpgradeDevice

    func testOverwriteOnlyConfirmsBeforeTheResetAndTheCopyEmptiesTheSecondary() async throws {
        let served = try await serveUpgradeDevice(Sim.mcuboot(.overwriteOnly))
        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(UpgradeContent([try Sim.image()], with: .mcuboot), on: served, options: quickOptions(), events: events)
        XCTAssertEqual(events.startedSteps, ["upload", "confirm", "reset", "wait", "verify-running"])
        XCTAssertEqual(report.finalImages?.map(\.brief), ["0/0 2.0.0 ac"])
    }

    func testDirectXIPUploadsTheBinaryForTheFreeSlotWithoutMarks() async throws {
        let served = try await serveUpgradeDevice(Sim.mcuboot(.directXIP))
        let images = [try Sim.image(slot: 0), try Sim.image(slot: 1)]
        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(UpgradeContent(images, with: .mcuboot), on: served, options: quickOptions(), events: events)
        XCTAssertEqual(events.startedSteps, ["upload", "reset", "wait", "verify-running"])
        let plan = try XCTUnwrap(report.plan as? MCUbootUpgradePlan)
        XCTAssertEqual(Set(plan.decisions.map { "\($0.image.slot ?? -1):\($0.action.name)" }), ["0:not-needed", "1:upload"])
        XCTAssertEqual(events.progress.last?.upload.fileName, "app-slot1.bin")
        XCTAssertEqual(report.finalImages?.first { $0.active }?.slot, 1)
        XCTAssertEqual(report.finalImages?.first { $0.active }?.version, "2.0.0")
    }

    func testDirectXIPWithRevertTestsThenConfirms() async throws {
        let served = try await serveUpgradeDevice(Sim.mcuboot(.directXIPWithRevert))
        let images = [try Sim.image(slot: 0), try Sim.image(slot: 1)]
        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(UpgradeContent(images, with: .mcuboot), on: served, options: quickOptions(), events: events)
        XCTAssertEqual(events.startedSteps, ["upload", "test", "reset", "wait", "verify-running", "confirm", "verify-confirmed"])
        XCTAssertEqual(report.finalImages?.map(\.brief), ["0/0 1.0.0 ", "0/1 2.0.0 ac"])
    }

    func testRAMLoadUploadsResetsAndBootsTheHighestVersion() async throws {
        let served = try await serveUpgradeDevice(Sim.mcuboot(.ramLoad))
        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(UpgradeContent([try Sim.image()], with: .mcuboot), on: served, options: quickOptions(), events: events)
        XCTAssertEqual(events.startedSteps, ["upload", "reset", "wait", "verify-running"])
        XCTAssertTrue(report.plan.notes.contains { $0.contains("boots the newest image") }, "\(report.plan.notes)")
        XCTAssertEqual(report.finalImages?.first { $0.active }?.version, "2.0.0")
    }

    func testSerialRecoveryWritesThePrimarySlotAndTheApplicationRunsIt() async throws {
        var configuration = Sim.mcuboot()
        configuration.recovery = MCUbootRecoveryConfiguration()
        configuration.startsInRecovery = true
        let served = try await serveUpgradeDevice(configuration)
        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(UpgradeContent([try Sim.image()], with: .mcuboot), on: served, options: quickOptions(), events: events)
        let state = try XCTUnwrap(events.inspected.first as? MCUbootDeviceState)
        XCTAssertTrue(state.server.isSerialRecovery, "\(state.server.evidence)")
        XCTAssertEqual(events.startedSteps.first, "upload")
        XCTAssertTrue(events.startedSteps.contains("reset"), "\(events.startedSteps)")
        XCTAssertEqual(report.finalImages?.first { $0.active }?.version, "2.0.0")
    }

    func testViaBootloaderEntersTheRecoveryPlansAgainAndReturnsToTheApplication() async throws {
        var configuration = Sim.mcuboot()
        configuration.recovery = MCUbootRecoveryConfiguration()
        let served = try await serveUpgradeDevice(configuration)
        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(
            UpgradeContent([try Sim.image()], with: .mcuboot), on: served, options: quickOptions(viaBootloader: true), events: events)
        XCTAssertEqual(Array(events.startedSteps.prefix(3)), ["enter-bootloader", "wait-bootloader", "upload"])
        XCTAssertEqual(events.plans.count, 2, "planned again once the recovery answers")
        let inRecovery = try XCTUnwrap(events.inspected.last as? MCUbootDeviceState)
        XCTAssertTrue(inRecovery.server.isSerialRecovery)
        XCTAssertTrue(events.notes.contains { $0.hasPrefix("MCUboot serial recovery answers") }, "\(events.notes)")
        XCTAssertEqual(report.finalImages?.first { $0.active }?.version, "2.0.0")
        let resets = await served.device.resetCount
        XCTAssertEqual(resets, 2, "into the bootloader, and back to the application")
    }

    /// A link that does not survive the reset (a USB device that re-enumerates): the old port
    /// stops answering at the reset, and the upgrade carries on over the connection the factory
    /// opens to the new one.
    func testAResetThatChangesTheLinkIsFollowedThroughTheFactory() async throws {
        let device = VirtualDevice(configuration: Sim.mcuboot())
        let gone = ServerStopper()
        let first = try await serveAgain(device, stop: gone)
        let second = try await serveAgain(device)
        let watcher = Task {
            for await _ in device.resets {
                await gone.stopAll()
                return
            }
        }
        defer { watcher.cancel() }
        let opened = Mutex(0)
        let reconnect: FirmwareUpgrade.Reconnect = {
            opened.withLock { $0 += 1 }
            return try await SMPConnection.open(second)
        }
        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(
            UpgradeContent([try Sim.image()], with: .mcuboot), on: SimulatedUpgradeDevice(device: device, connection: first),
            options: quickOptions(), events: events, reconnect: reconnect)
        XCTAssertEqual(events.startedSteps, ["upload", "test", "reset", "wait", "verify-running", "confirm", "verify-confirmed"])
        XCTAssertGreaterThanOrEqual(opened.withLock { $0 }, 1)
        XCTAssertTrue(events.notes.contains("reconnected after the reset"), "\(events.notes)")
        XCTAssertEqual(report.finalImages?.first?.brief, "0/0 2.0.0 ac")
    }
}
