import Foundation
import SMP
import SMPSimulator
import XCTest

/// `smpctl upgrade` and the image and OS commands when MCUboot's serial recovery answers, and
/// from an application that needs the bootloader (`--via-bootloader`) or does not report its
/// mode, against the virtual device's recovery personality (the mps2 fixture's settings).
final class UpgradeThroughBootloaderTests: XCTestCase {
    /// A swap-mode device with the fixture's recovery (1024/1, write unit 4, no echo or state).
    private func device(inRecovery: Bool, recovery: Bool = true, mode: MCUbootMode = .swapUsingMove, bootloaderInfo: Bool = true)
        -> VirtualDeviceConfiguration
    {
        var configuration = UpgradeFiles.device(mode: mode)
        configuration.recovery = recovery ? MCUbootRecoveryConfiguration() : nil
        configuration.startsInRecovery = inRecovery
        configuration.bootloaderInfo = bootloaderInfo
        return configuration
    }

    private func upgrade(_ served: ServedDevice, _ file: UpgradeFiles.File, _ extra: [String] = []) async throws -> (SMPCtlRun, [JSONNode]) {
        let run = try await SMPCtl.run(["upgrade", file.path, "--json", "-c", served.endpoint] + extra, timeout: 120)
        return (run, try jsonLines(run))
    }

    func testUpgradeInRecoveryWritesSlotZeroResetsAndChecks() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(device(inRecovery: true))
        let (run, events) = try await upgrade(served, app)
        assertSuccess(run)
        XCTAssertEqual(startedSteps(events), ["upload", "reset", "wait", "verify-running"])
        let inspected = try XCTUnwrap(events.first { $0["event"]?.string == "device" })
        XCTAssertEqual(inspected["serialRecovery"]?.bool, true, "\(run)")
        XCTAssertEqual(inspected["server"]?.string, "mcuboot-serial-recovery")
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 2.0.0 ac"])
        let holds = try await slotHolds(served, slot: 0, file: app.path)
        XCTAssertTrue(holds, "slot 0 holds exactly the file")
    }

    func testUpgradeViaBootloaderGoesThereAndBack() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(device(inRecovery: false))
        let (run, events) = try await upgrade(served, app, ["--via-bootloader"])
        assertSuccess(run)
        XCTAssertEqual(startedSteps(events), ["enter-bootloader", "wait-bootloader", "upload", "reset", "wait", "verify-running"])
        XCTAssertEqual(events.filter { $0["event"]?.string == "plan" }.count, 2, "planned again in the recovery: \(run.stdout)")
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots.first, "0/0 2.0.0 ac")
        let resets = await served.device.resetCount
        XCTAssertEqual(resets, 2)

        // Run again: the application runs the file, nothing to do, no reset.
        let (again, _) = try await upgrade(served, app, ["--via-bootloader"])
        assertSuccess(again)
        let after = await served.device.resetCount
        XCTAssertEqual(after, 2)
    }

    func testViaBootloaderOnFirmwareThatIgnoresBootModeFailsBeforeWriting() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(device(inRecovery: false, recovery: false))
        let before = try await listedSlots(served)
        let run = try await SMPCtl.run(["upgrade", app.path, "--via-bootloader", "-c", served.endpoint], timeout: 120)
        assertExit(run, 2)
        assertStderr(run, contains: "answers as the application", "ignores boot mode 1", "CONFIG_MCUMGR_GRP_OS_RESET_BOOT_MODE")
        let after = try await listedSlots(served)
        XCTAssertEqual(after, before, "nothing was written")
    }

    func testCommandsSayTheRecoveryAnswersAndHintMCUbootOptions() async throws {
        let served = try await startDevice(device(inRecovery: true))
        let bootloader = try await SMPCtl.run(["os", "bootloader", "--json", "-c", served.endpoint])
        assertSuccess(bootloader)
        let document = try bootloader.jsonDocument()
        XCTAssertEqual(document["serialRecovery"]?.bool, true)
        XCTAssertEqual(document["bootloader"]?.string, "MCUboot")
        let text = try await SMPCtl.run(["os", "bootloader", "-c", served.endpoint])
        XCTAssertTrue(text.stdout.contains("serial recovery"), text.stdout)

        let list = try await SMPCtl.run(["image", "list", "--json", "-c", served.endpoint])
        XCTAssertEqual(try list.jsonDocument()["serialRecovery"]?.bool, true, list.stdout)
        let table = try await SMPCtl.run(["image", "list", "-c", served.endpoint])
        XCTAssertTrue(table.stdout.contains("MCUboot serial recovery answers"), table.stdout)

        let echo = try await SMPCtl.run(["os", "echo", "hi", "-c", served.endpoint])
        assertExit(echo, 2)
        assertStderr(echo, contains: "MCUboot's serial recovery answered MGMT_ERR_ENOTSUP", "CONFIG_BOOT_MGMT_ECHO")
        XCTAssertFalse(echo.stderr.contains("CONFIG_MCUMGR_GRP_OS"), echo.stderr)
        let stat = try await SMPCtl.run(["stat", "list", "-c", served.endpoint])
        assertExit(stat, 2)
        assertStderr(stat, contains: "MCUboot's serial recovery answers, and it has no such command", "smpctl os reset")
    }

    func testImageUploadInRecoveryPointsToAResetAndReportsIt() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(device(inRecovery: true))
        let text = try await SMPCtl.run(["image", "upload", app.path, "-c", served.endpoint], timeout: 120)
        assertExit(text, 0)
        XCTAssertTrue(text.stdout.contains("next: smpctl os reset"), text.stdout)
        XCTAssertFalse(text.stdout.contains("image test"), text.stdout)
        let json = try await SMPCtl.run(["image", "upload", app.path, "--json", "-c", served.endpoint], timeout: 120)
        XCTAssertEqual(try jsonLines(json).last?["serialRecovery"]?.bool, true, json.stdout)
    }

    func testRAMLoadApplicationWithoutBootloaderInfoIsUpgradedByItsHeader() async throws {
        let app = try UpgradeFiles.file("app-ramload-v2")
        let served = try await startDevice(device(inRecovery: false, mode: .ramLoad, bootloaderInfo: false))
        let (run, events) = try await upgrade(served, app)
        assertSuccess(run)
        XCTAssertEqual(startedSteps(events), ["upload", "reset", "wait", "verify-running"])
        let notes = events.first { $0["event"]?.string == "plan" }?["notes"]?.array?.compactMap(\.string) ?? []
        XCTAssertTrue(notes.contains { $0.contains("mode inferred: ram-load") && $0.contains("RAM_LOAD") }, "\(notes)")
        let active = try await listedSlots(served).first { $0.contains(" a") }
        XCTAssertEqual(active, "0/1 2.0.0 ac")
    }

    func testRefusedTestMarkOnAnUnreportedModeCarriesOnWithoutMarks() async throws {
        // A plain image (no RAM_LOAD) on the RAM-load application: the plan assumes a swap mode,
        // the device refuses the test mark, and the upgrade goes on with reset and check.
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(device(inRecovery: false, mode: .ramLoad, bootloaderInfo: false))
        let (run, events) = try await upgrade(served, app)
        assertSuccess(run)
        XCTAssertEqual(startedSteps(events), ["upload", "test", "reset", "wait", "verify-running"])
        let notes = events.filter { $0["event"]?.string == "note" }.compactMap { $0["message"]?.string }
        XCTAssertTrue(notes.contains { $0.contains("refused the test") }, "\(run.stdout)")
        let active = try await listedSlots(served).first { $0.contains(" a") }
        XCTAssertEqual(active, "0/1 2.0.0 ac")
    }
}
