import Foundation
import SMP
import SMPSimulator
import XCTest

/// `smpctl upgrade --erase-settings`: the storage is erased before the reset, so the new
/// firmware starts without the old settings; a device without the Zephyr basic group gets a note.
final class UpgradeEraseSettingsTests: XCTestCase {
    func testEraseHappensAndSettingsAreGoneAfterTheUpgrade() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(UpgradeFiles.device())
        let before = try await SMPCtl.run(["settings", "read", "bt/name", "-c", served.endpoint])
        XCTAssertEqual(before.stdout, "Zephyr\n")
        let run = try await SMPCtl.run(["upgrade", app.path, "--erase-settings", "-c", served.endpoint])
        assertExit(run, 0)
        XCTAssertFalse(run.stderr.contains("does not implement erase storage"), run.stderr)
        let group = await served.device.group(.settings)
        let settings = try XCTUnwrap(group as? SettingsGroup)
        XCTAssertEqual(settings.storage.eraseCount, 1)
        let after = try await SMPCtl.run(["settings", "read", "bt/name", "-c", served.endpoint])
        assertExit(after, 2)
        assertStderr(after, contains: "SETTINGS_MGMT_ERR_KEY_NOT_FOUND")
    }

    func testADeviceWithoutTheGroupGetsANoteAndKeepsItsSettings() async throws {
        let app = try UpgradeFiles.file("app-v2")
        var configuration = UpgradeFiles.device()
        configuration.zephyrBasic = false
        let served = try await startDevice(configuration)
        let run = try await SMPCtl.run(["upgrade", app.path, "--erase-settings", "-c", served.endpoint])
        assertExit(run, 0)
        XCTAssertTrue(run.stderr.contains("does not implement erase storage"), "\(run)")
        let after = try await SMPCtl.run(["settings", "read", "bt/name", "-c", served.endpoint])
        XCTAssertEqual(after.stdout, "Zephyr\n")
    }
}
