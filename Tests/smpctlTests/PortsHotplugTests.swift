import Foundation
import SMPTestSupport
import XCTest

/// `smpctl ports --wait` while devices come and go: Tests/Fixtures/udev/hotplug.py drives
/// umockdev's GI API (a live testbed with uevents) and runs the real smpctl inside it.
final class PortsHotplugTests: XCTestCase {
    /// Runs one scenario; returns its `RESULT` document.
    private func scenario(_ name: String, file: StaticString = #filePath, line: UInt = #line) async throws -> JSONNode {
        let smpctl = try SMPCtl.executable()
        let document = try await MockedDevices.hotplug([smpctl, name], file: file, line: line)
        // For the test log: how smpctl found the device, or what the probes said.
        print("hotplug \(name): \(document["stderr"]?.string?.trimmingCharacters(in: .newlines) ?? "")")
        return document
    }

    /// Runs a `--wait` scenario; returns how smpctl found the port ("monitor" or "polling").
    private func foundBy(_ name: String, file: StaticString = #filePath, line: UInt = #line) async throws -> String {
        let document = try await scenario(name, file: file, line: line)
        return try XCTUnwrap(document["foundBy"]?.string, file: file, line: line)
    }

    /// The device appears 0.5 s into the wait with its "add" uevents; polling is set to 30 s, so
    /// the udev monitor must report it.
    func testWaitSeesADeviceAppearThroughTheUdevMonitor() async throws {
        let foundBy = try await foundBy("appear")
        XCTAssertEqual(foundBy, "monitor")
    }

    /// No uevent (as without udevd): polling every 0.1 s finds it.
    func testWaitFallsBackToPollingWithoutUevents() async throws {
        let foundBy = try await foundBy("quiet")
        XCTAssertEqual(foundBy, "polling")
    }

    /// Removed, then back as ttyACM1 with the same serial number: the new path is printed.
    func testWaitFindsTheSameDeviceUnderAnotherNodeName() async throws {
        let foundBy = try await foundBy("renumber")
        XCTAssertTrue(["monitor", "polling"].contains(foundBy), foundBy)
    }

    /// `ports --probe` against a mocked device that answers SMP echoes and one that stays silent.
    func testProbeTellsTheAnsweringDeviceFromTheSilentOne() async throws {
        let document = try await scenario("probe")
        let probes = try XCTUnwrap(document["probes"])
        let results = [probes["/dev/ttyACM0"]?["result"]?.string, probes["/dev/ttyACM1"]?["result"]?.string]
        XCTAssertEqual(results, ["answered", "silent"], "\(probes)")
    }
}
