import SMP
import SMPSimulator
import XCTest

/// `smpctl zephyr erase-storage`: confirmation, --yes, JSON, and what it erases.
final class ZephyrCommandTests: XCTestCase {
    func testRefusesWithoutATerminalUnlessYes() async throws {
        let served = try await startDevice()
        let refused = try await SMPCtl.run(["zephyr", "erase-storage", "-c", served.endpoint])
        assertExit(refused, 64)
        assertStderr(refused, contains: "standard input is not a terminal", "add --yes")
        let json = try await SMPCtl.run(["zephyr", "erase-storage", "-c", served.endpoint, "--json"])
        try assertErrorDocument(json, name: "usage-error", code: 64, messageContains: ["without confirmation"])
        let requests = await served.requests
        XCTAssertEqual(requests, 0, "nothing is sent without confirmation")
    }

    func testYesErasesTheSavedSettings() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["zephyr", "erase-storage", "--yes", "-c", served.endpoint, "--json"])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "{\"schemaVersion\":1,\"erased\":true}\n")
        let group = await served.device.group(.settings)
        let settings = try XCTUnwrap(group as? SettingsGroup)
        XCTAssertEqual(settings.storage.eraseCount, 1)
        XCTAssertEqual(settings.storage.settings, [:])
        let human = try await SMPCtl.run(["zephyr", "erase-storage", "-y", "-c", served.endpoint])
        assertSuccess(human)
        XCTAssertEqual(human.stdout, "erased the storage partition\n")
    }

    func testWithoutTheGroup() async throws {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.zephyrBasic = false
        let served = try await startDevice(configuration)
        let run = try await SMPCtl.run(["zephyr", "erase-storage", "--yes", "-c", served.endpoint])
        assertExit(run, 2)
        assertStderr(run, contains: "MGMT_ERR_ENOTSUP")
    }
}
