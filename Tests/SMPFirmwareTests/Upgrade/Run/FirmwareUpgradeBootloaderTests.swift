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

    /// An image the RAM-load MCUboot does not boot (its slot is erased, the old image runs):
    /// the check after the reset names the causes, the RAM-load address among them.
    func testARAMLoadImageMCUbootRefusesNamesItsLoadAddressAmongTheCauses() async throws {
        let served = try await serveUpgradeDevice(Sim.mcuboot(.ramLoad))
        var image = try Self.invalidImage()
        image.flags = [.ramLoad]
        image.loadAddress = 0x2024_0000
        let failure = try await failingUpgrade(image, on: served, events: RecordedUpgradeEvents())
        let error = try XCTUnwrap(failure)
        XCTAssertEqual(error.step, "verify-running")
        XCTAssertEqual(
            "\(error.underlying)",
            "image 0: the device runs version 1.0.0 in slot 0, and 2.0.0+0 is gone: MCUboot refused it (a signature or key mismatch, "
                + "downgrade prevention, or a load address (0x20240000) outside the RAM MCUboot loads into)")
        XCTAssertEqual(error.nextStep, .listImages)
    }

    /// A sound image's file with one body byte changed: its hash TLV no longer matches, so
    /// MCUboot does not validate it (made past the file check that `upgrade` does).
    private static func invalidImage() throws -> MCUbootUpgradeImage {
        let sound = try Sim.image()
        var damaged = sound.bytes
        damaged[MCUbootImageHeader.size] ^= 0xFF
        return MCUbootUpgradeImage(image: 0, fileName: "app.bin", bytes: damaged, hash: sound.hash, version: sound.version)
    }

    /// The error of an upgrade of `image` that must fail (nil, and a failure, when it succeeds).
    private func failingUpgrade(_ image: MCUbootUpgradeImage, on served: SimulatedUpgradeDevice, events: RecordedUpgradeEvents) async throws -> UpgradeError? {
        do {
            _ = try await runUpgrade(UpgradeContent([image], with: .mcuboot), on: served, options: quickOptions(), events: events)
            XCTFail("the upgrade of \(image.summary) succeeded")
            return nil
        } catch let error as UpgradeError {
            return error
        }
    }

    func testSerialRecoveryWritesThePrimarySlotAndTheApplicationRunsIt() async throws {
        let served = try await serveUpgradeDevice(Sim.inSerialRecovery())
        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(UpgradeContent([try Sim.image()], with: .mcuboot), on: served, options: quickOptions(), events: events)
        let state = try XCTUnwrap(events.inspected.first as? MCUbootDeviceState)
        XCTAssertTrue(state.server.isSerialRecovery, "\(state.server.evidence)")
        XCTAssertEqual(events.startedSteps.first, "upload")
        XCTAssertTrue(events.startedSteps.contains("reset"), "\(events.startedSteps)")
        XCTAssertEqual(report.finalImages?.first { $0.active }?.version, "2.0.0")
    }

    /// An image the recovery writes but does not list (it does not validate: here its content
    /// does not match its hash; on the fixture, a RAM-load address outside MCUboot's RAM) fails
    /// the upload step after a second upload from offset 0, with the causes in the error's own
    /// hint and no advice to run the same command again.
    func testAnImageTheRecoveryDoesNotAcceptFailsWithoutAdvisingARerun() async throws {
        let served = try await serveUpgradeDevice(Sim.inSerialRecovery())
        let events = RecordedUpgradeEvents()
        let failure = try await failingUpgrade(try Self.invalidImage(), on: served, events: events)
        let error = try XCTUnwrap(failure)
        XCTAssertEqual(error.step, "upload")
        XCTAssertEqual(error.underlying as? TransferVerificationError, .recoveryRefused(attempts: 2))
        XCTAssertNil(error.hint)
        XCTAssertNil(error.nextStep)
        let hint = try XCTUnwrap((error.underlying as? TransferVerificationError)?.hint)
        XCTAssertTrue(hint.contains("--load-addr") && hint.contains("key"), hint)
        XCTAssertEqual(events.startedSteps, ["upload"])
        XCTAssertEqual(events.progress.filter { $0.progress.acknowledged == $0.progress.total }.count, 2, "two whole uploads")
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
