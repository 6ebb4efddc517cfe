import SMP
import SMPFirmware
import SMPKit
import SMPSimulator
import XCTest

/// `FirmwareUpgrade.run` in-process against MCUboot's firmware-loader mode: the application has
/// one slot and takes no upload; the firmware loader in slot 1, started by a reset with boot
/// mode 1, writes the application's slot 0, and the next reset starts the new application.
final class FirmwareUpgradeFirmwareLoaderTests: XCTestCase {
    private typealias Sim = SimulatedUpgradeDevice

    func testTheApplicationIsResetIntoTheLoaderWhichWritesItsSlotAndTheNewApplicationRuns() async throws {
        let served = try await serveUpgradeDevice(Sim.mcuboot(.firmwareLoader))
        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(UpgradeContent([try Sim.image()], with: .mcuboot), on: served, options: quickOptions(), events: events)
        XCTAssertEqual(events.startedSteps, ["enter-loader", "wait-loader", "upload", "reset", "wait", "verify-running"])
        XCTAssertEqual(events.plans.count, 2, "planned again once the loader answers")
        let application = try XCTUnwrap(events.inspected.first as? MCUbootDeviceState)
        XCTAssertFalse(application.runsFirmwareLoader)
        XCTAssertEqual(application.slots.map(\.brief), ["0/0 1.0.0 ac"], "the application lists its one slot")
        let loader = try XCTUnwrap(events.inspected.last as? MCUbootDeviceState)
        XCTAssertTrue(loader.runsFirmwareLoader, "\(loader.slots.map(\.brief))")
        XCTAssertTrue(loader.summary.hasPrefix("MCUboot's firmware loader answers"), loader.summary)
        XCTAssertTrue(events.notes.contains { $0.hasPrefix("MCUboot's firmware loader answers") }, "\(events.notes)")
        let plan = try XCTUnwrap(report.plan as? MCUbootUpgradePlan)
        XCTAssertEqual(plan.installation, .firmwareLoader)
        XCTAssertEqual(plan.decisions.map(\.action), [.upload])
        XCTAssertTrue(plan.notes.contains { $0.contains("nothing is marked") }, "\(plan.notes)")
        XCTAssertEqual(report.finalImages?.map(\.brief), ["0/0 2.0.0 ac"])
        let resets = await served.device.resetCount
        XCTAssertEqual(resets, 2, "into the loader, and back to the application")
        let personality = await served.device.personality
        XCTAssertEqual(personality, .application)
    }

    func testAnUpgradeStartedWhileTheLoaderRunsUploadsAtOnce() async throws {
        let served = try await serveUpgradeDevice(Sim.mcuboot(.firmwareLoader))
        try await enterLoader(served)
        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(UpgradeContent([try Sim.image()], with: .mcuboot), on: served, options: quickOptions(), events: events)
        XCTAssertEqual(events.startedSteps, ["upload", "reset", "wait", "verify-running"])
        XCTAssertEqual(events.plans.count, 1)
        let loader = try XCTUnwrap(events.inspected.first as? MCUbootDeviceState)
        XCTAssertEqual(loader.slots.map(\.brief), ["0/0 1.0.0 ", "0/1 0.1.0 ac"], "the loader runs from slot 1")
        XCTAssertEqual(report.finalImages?.map(\.brief), ["0/0 2.0.0 ac"])
    }

    func testTheImageTheApplicationRunsIsNothingToDo() async throws {
        let served = try await serveUpgradeDevice(Sim.mcuboot(.firmwareLoader))
        _ = try await runUpgrade(UpgradeContent([try Sim.image()], with: .mcuboot), on: served, options: quickOptions(), events: RecordedUpgradeEvents())
        let events = RecordedUpgradeEvents()
        let report = try await runUpgrade(UpgradeContent([try Sim.image()], with: .mcuboot), on: served, options: quickOptions(), events: events)
        XCTAssertEqual(events.startedSteps, [])
        let plan = try XCTUnwrap(report.plan as? MCUbootUpgradePlan)
        XCTAssertEqual(plan.installation, .firmwareLoader)
        XCTAssertEqual(plan.decisions.map(\.action), [.running(confirmed: true)])
        XCTAssertEqual(plan.nothingToDoBrief, "already running 2.0.0")
        XCTAssertEqual(plan.notes, [], "nothing to do needs no route into the loader")
        let resets = await served.device.resetCount
        XCTAssertEqual(resets, 2, "only the first upgrade reset the device")
    }

    /// A device without a loader to start (its slot 1 holds none) comes back as the application:
    /// the wait for the loader fails with the MCUboot options to check, and nothing is written.
    func testADeviceThatComesBackAsTheApplicationFailsBeforeWriting() async throws {
        let configuration = Sim.mcuboot(.firmwareLoader)
        let images = try XCTUnwrap(configuration.images)
        let device = VirtualDevice(configuration: configuration, groups: [ImageGroup(configuration: images)])
        let served = SimulatedUpgradeDevice(device: device, connection: try await serveAgain(device))
        let events = RecordedUpgradeEvents()
        do {
            _ = try await runUpgrade(UpgradeContent([try Sim.image()], with: .mcuboot), on: served, options: quickOptions(), events: events)
            XCTFail("the upgrade succeeded without a loader")
        } catch let error as UpgradeError {
            XCTAssertEqual(error.step, "wait-loader")
            XCTAssertTrue("\(error.underlying)".contains("ignores boot mode 1"), "\(error.underlying)")
            XCTAssertTrue(error.hint?.contains("CONFIG_BOOT_FIRMWARE_LOADER_BOOT_MODE") == true, "\(error.hint ?? "no hint")")
        }
        XCTAssertEqual(events.startedSteps, ["enter-loader", "wait-loader"])
        let listed = await device.group(.image)
        let group = try XCTUnwrap(listed as? ImageGroup)
        XCTAssertEqual(SimulatedImageHeader(group.contents(image: 0, slot: 0))?.versionString, "1.0.0", "slot 0 untouched")
    }

    /// The application refuses an upload itself, as Zephyr's img_mgmt does in this mode: no free slot.
    func testTheApplicationRefusesAnUploadWithNoFreeSlot() async throws {
        let served = try await serveUpgradeDevice(Sim.mcuboot(.firmwareLoader))
        let client = try await openClient(served.connection)
        let image = try Sim.image()
        do {
            _ = try await client.send(ImageUploadChunk(image: 0, offset: 0, data: Array(image.bytes.prefix(512)), length: UInt64(image.bytes.count)))
            XCTFail("the application took an upload")
        } catch {
            guard case .device(.groupError(.image(.noFreeSlot)), _) = error else { return XCTFail("\(error)") }
        }
    }

    /// Resets the device into its firmware loader (as a button would) and waits until the loader runs.
    private func enterLoader(_ served: SimulatedUpgradeDevice) async throws {
        let client = try await openClient(served.connection)
        _ = try await client.send(OSReset(bootMode: OSReset.bootloaderBootMode))
        for _ in 0..<100 where await served.device.personality != .firmwareLoader {
            try await Task.sleep(for: .milliseconds(20))
        }
        let personality = await served.device.personality
        XCTAssertEqual(personality, .firmwareLoader)
    }
}
