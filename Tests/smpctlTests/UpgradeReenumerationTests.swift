import Foundation
import SMPSimulator
import XCTest

/// `smpctl upgrade` over a USB serial device that re-enumerates at its reset.
///
/// umockdev mocks a Zephyr CDC ACM device on ttyACM0 whose tty is bridged to a virtual device
/// served over UDP by this test (`Tests/Fixtures/udev/hotplug.py upgrade`). When the virtual
/// device answers the OS reset, the USB device leaves sysfs, its tty hangs up, and 0.5 s later it
/// comes back as ttyACM1 with the same serial number, while the virtual device swaps the images
/// and boots. The real `smpctl` finds it again by its serial number and finishes the upgrade.
final class UpgradeReenumerationTests: XCTestCase {
    private static let serialNumber = "XYZ0123456789"

    func testAnUpgradeCarriesOnWhenTheDeviceComesBackUnderAnotherName() async throws {
        let app = try UpgradeFiles.file("app-v2")
        // Zephyr's serial buffers; the device goes down 250 ms after answering the reset and stays
        // silent for 1 s, so the new tty appears before the device answers on it.
        var configuration = UpgradeFiles.device(resetDelay: .milliseconds(250), bootTime: .seconds(1))
        configuration.bufferSize = 384
        let served = try await startDevice(configuration)
        let port = try XCTUnwrap(served.endpoint.split(separator: ":").last.map(String.init), served.endpoint)
        let smpctl = try SMPCtl.executable()
        let arguments = ["upgrade", app.path, "--json", "-c", "serial:serial-number=\(Self.serialNumber)"]
        let document = try await MockedDevices.hotplug(["upgrade", port, smpctl] + arguments, timeout: 150)

        let run = SMPCtlRun(
            arguments: arguments, status: Int32(document["status"]?.int ?? -1), stdout: document["stdout"]?.string ?? "",
            stderr: document["stderr"]?.string ?? "", seconds: 0, timedOut: false)
        assertExit(run, 0)
        XCTAssertEqual(document["resets"]?.int, 1, "the device answered a reset and re-enumerated")
        assertStderr(run, contains: "the device is back at /dev/ttyACM1")
        let events = try jsonLines(run)
        XCTAssertEqual(startedSteps(events), ["upload", "test", "reset", "wait", "verify-running", "confirm", "verify-confirmed"])
        let done = try XCTUnwrap(events.last, "\(run)")
        XCTAssertEqual(done["event"]?.string, "done", "\(run)")
        XCTAssertEqual(done["images"]?[0]?["imageHash"]?.string, app.hash)
        XCTAssertEqual(done["images"]?[0]?["confirmed"]?.bool, true)
        // The upload went over ttyACM0; the wait's polls, the checks and the confirmation over ttyACM1.
        let bridged = try XCTUnwrap(document["bridged"])
        XCTAssertGreaterThan(bridged["/dev/ttyACM0"]?.int ?? 0, app.size / 384, "the upload's chunks: \(bridged)")
        XCTAssertGreaterThanOrEqual(bridged["/dev/ttyACM1"]?.int ?? 0, 3, "the requests after the reset: \(bridged)")

        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 2.0.0 ac", "0/1 1.0.0 "])
        let holds = try await slotHolds(served, slot: 0, file: app.path)
        XCTAssertTrue(holds, "the running slot holds exactly the file")
        let resets = await served.device.resetCount
        XCTAssertEqual(resets, 1)
    }

    /// `--via-bootloader` over USB: the application resets into MCUboot's serial recovery, which
    /// enumerates under another product ID (ttyACM1, 2fe3:000b), then back into the application
    /// (ttyACM2, 2fe3:0100); the same device is found each time by its serial number.
    func testViaBootloaderFollowsTheDeviceThroughBothReEnumerations() async throws {
        let app = try UpgradeFiles.file("app-v2")
        var configuration = UpgradeFiles.device(resetDelay: .milliseconds(250), bootTime: .seconds(1))
        configuration.bufferSize = 384
        configuration.recovery = MCUbootRecoveryConfiguration()
        let served = try await startDevice(configuration)
        let port = try XCTUnwrap(served.endpoint.split(separator: ":").last.map(String.init), served.endpoint)
        let smpctl = try SMPCtl.executable()
        let arguments = ["upgrade", app.path, "--via-bootloader", "--json", "-c", "serial:serial-number=\(Self.serialNumber)"]
        let document = try await MockedDevices.hotplug(["bootloader", port, smpctl] + arguments, timeout: 150)

        let run = SMPCtlRun(
            arguments: arguments, status: Int32(document["status"]?.int ?? -1), stdout: document["stdout"]?.string ?? "",
            stderr: document["stderr"]?.string ?? "", seconds: 0, timedOut: false)
        assertExit(run, 0)
        XCTAssertEqual(document["resets"]?.int, 2, "into the bootloader and back, each with a re-enumeration")
        assertStderr(run, contains: "the device is back at /dev/ttyACM1", "the device is back at /dev/ttyACM2")
        let events = try jsonLines(run)
        XCTAssertEqual(startedSteps(events), ["enter-bootloader", "wait-bootloader", "upload", "reset", "wait", "verify-running"])
        let bridged = try XCTUnwrap(document["bridged"])
        XCTAssertGreaterThan(bridged["/dev/ttyACM1"]?.int ?? 0, app.size / 1024, "the upload went to the recovery: \(bridged)")
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots.first, "0/0 2.0.0 ac")
        let resets = await served.device.resetCount
        XCTAssertEqual(resets, 2)
    }
}
