import Foundation
import SMP
import SMPSerial
import SMPTestSupport
import XCTest
@testable import SMPKit

/// A USB device that resets and comes back under another name: the same SMP session carries on.
///
/// The device is mocked by umockdev (`Tests/Fixtures/udev/hotplug.py reset`): a Zephyr CDC ACM
/// device on ttyACM0 that answers echo and reset over SMP console framing and, after the reset,
/// disappears and re-enumerates as ttyACM1 with the same USB serial number. The session must run
/// under umockdev's preload, so this test starts the harness, which runs this same test method
/// again (with `SMPCTL_UMOCKDEV_SESSION=inside`) as the session.
final class SerialResetReenumerationTests: XCTestCase {
    private static let serialNumber = "XYZ0123456789"

    func testTheSessionSurvivesAResetThatRenamesTheDevice() async throws {
        if ProcessInfo.processInfo.environment["SMPCTL_UMOCKDEV_SESSION"] == "inside" {
            try await session()
            return
        }
        let wrapper = "/usr/bin/umockdev-wrapper", python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: wrapper), FileManager.default.isExecutableFile(atPath: python) else {
            try ExternalTool.unavailable("umockdev-wrapper and the system python3 (apt: umockdev gir1.2-umockdev-1.0 python3-gi)")
        }
        let harness = ExternalTool.packageRoot.appendingPathComponent("Tests/Fixtures/udev/hotplug.py").path
        let testBinary = CommandLine.arguments[0]
        let result = try ProcessRunner.run(
            wrapper, [python, harness, "reset", testBinary, "SMPKitTests.SerialResetReenumerationTests/testTheSessionSurvivesAResetThatRenamesTheDevice"],
            timeout: 120)
        XCTAssertEqual(result.status, 0, "the session or the harness failed:\n\(result.stdout)\n\(result.stderr)")
        XCTAssertTrue(result.stdout.contains("SESSION /dev/ttyACM0 -> /dev/ttyACM1"), result.stdout)
        XCTAssertTrue(result.stdout.contains("\"resets\": 1"), result.stdout)
    }

    /// The session proper, inside the mocked environment.
    private func session() async throws {
        let client = try await SMPConnection.open("serial:serial-number=\(Self.serialNumber)?timeout=1&retries=6")
        let transport = try XCTUnwrap(client.transport as? SerialTransport)
        let before = transport.currentPath
        let first = try await client.send(OSEcho("before the reset"))
        XCTAssertEqual(first, "before the reset")
        try await client.send(OSReset())
        let second = try await client.send(OSEcho("after the reset"))
        XCTAssertEqual(second, "after the reset")
        let after = transport.currentPath
        XCTAssertNotEqual(before, after, "the device came back under another name")
        print("SESSION \(before) -> \(after)")
        await client.close()
    }
}
