import SMPSimulator
import XCTest

/// `smpctl simulate`'s shell, settings and Zephyr basic flags.
final class ShellSimulateOptionsTests: XCTestCase {
    func testLegacyRcAndGroupsLeftOut() async throws {
        let (_, endpoint) = try await startSimulateProcess(["--shell-legacy-rc", "--no-zephyr-basic", "--no-settings"])
        let shell = try await SMPCtl.run(["shell", "exec", "-c", endpoint, "--json", "--", "nope"])
        assertExit(shell, 248)
        XCTAssertEqual(try shell.jsonDocument()["legacyReturnCode"]?.bool, true)
        let erase = try await SMPCtl.run(["zephyr", "erase-storage", "--yes", "-c", endpoint])
        assertExit(erase, 2)
        assertStderr(erase, contains: "MGMT_ERR_ENOTSUP")
        let settings = try await SMPCtl.run(["settings", "read", "bt/name", "-c", endpoint])
        assertExit(settings, 2)
        assertStderr(settings, contains: "MGMT_ERR_ENOTSUP")
    }
}
