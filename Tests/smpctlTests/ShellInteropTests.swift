import SMP
import SMPSimulator
import XCTest

/// `smpmgr shell` (PyPI) against the virtual device: the peer reads our shell answers, and the
/// device ran the argv the peer split from its command string.
final class ShellInteropTests: XCTestCase {
    func testSMPMgrShellRunsCommandsOnTheVirtualDevice() async throws {
        try await SMPMgr.require()
        let served = try await startDeviceForSMPMgr(.zephyrForTests)
        let echo = try await SMPMgr.device(["shell", "echo from smpmgr"])
        XCTAssertEqual(echo.status, 0, "smpmgr shell failed\nstdout: \(echo.stdout)\nstderr: \(echo.stderr)")
        XCTAssertTrue(echo.stdout.contains("from smpmgr"), echo.stdout)
        let version = try await SMPMgr.device(["shell", "kernel version"])
        XCTAssertTrue(version.stdout.contains("Zephyr version"), "stdout: \(version.stdout)\nstderr: \(version.stderr)")
        let group = await served.device.group(.shell)
        let shell = try XCTUnwrap(group as? ShellGroup)
        XCTAssertEqual(shell.executed, [["echo", "from", "smpmgr"], ["kernel", "version"]])
    }
}
