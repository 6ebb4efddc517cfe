import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// The `smpmgr` command line (Python) against the virtual device. smpmgr always talks to UDP
/// port 1337, so the device is served on 127.0.0.1:1337. Its OS group commands are `os echo`
/// and `os reset`; every connection also reads the MCUmgr parameters first.
final class InteropSMPMgrTests: XCTestCase {
    private func smpmgr(_ arguments: [String]) async throws -> ProcessRunner.Result {
        try await Interop.run(Interop.smpmgr, ["--ip", "127.0.0.1", "--timeout", "3"] + arguments)
    }

    private func requireSMPMgr() async throws {
        try ExternalTool.requirePythonModules(["smpmgr", "smpclient", "smp"])
        let version = try await Interop.run(Interop.smpmgr, ["--version"])
        if version.status != 0 {
            try ExternalTool.unavailable("\(Interop.smpmgr) does not run: \(version.stderr)")
        }
    }

    func testSMPMgrEchoAndReset() async throws {
        try await requireSMPMgr()
        let device = VirtualDevice()
        let server = try await FixedPortServer.serve(device, port: 1337)

        let echo = try await smpmgr(["os", "echo", "hello from smpmgr"])
        XCTAssertEqual(echo.status, 0, "stdout: \(echo.stdout)\nstderr: \(echo.stderr)")
        XCTAssertTrue(echo.stdout.contains("r='hello from smpmgr'"), echo.stdout)

        let reset = try await smpmgr(["os", "reset"])
        XCTAssertEqual(reset.status, 0, "stdout: \(reset.stdout)\nstderr: \(reset.stderr)")
        XCTAssertTrue(reset.stdout.contains("ResetWriteResponse"), reset.stdout)

        let resets = await device.resetCount
        XCTAssertEqual(resets, 1)
        let statistics = await device.statistics
        // Each run reads the parameters first: 2 runs × (parameters + command).
        XCTAssertEqual(statistics.requests, 4)
        XCTAssertEqual(statistics.errorResponses, 0)
        await server.stop()
    }

    func testSMPMgrShowsARefusedReset() async throws {
        try await requireSMPMgr()
        let configuration = VirtualDeviceConfiguration(resetHook: .refuseUnlessForced(.returnCode(.busy)))
        let device = VirtualDevice(configuration: configuration)
        let server = try await FixedPortServer.serve(device, port: 1337)
        let reset = try await smpmgr(["os", "reset"])
        XCTAssertEqual(reset.status, 0, "stdout: \(reset.stdout)\nstderr: \(reset.stderr)")
        XCTAssertTrue(reset.stdout.contains("OSManagementErrorV1") && reset.stdout.contains("EBUSY"), reset.stdout)
        let resets = await device.resetCount
        XCTAssertEqual(resets, 0)
        await server.stop()
    }
}
