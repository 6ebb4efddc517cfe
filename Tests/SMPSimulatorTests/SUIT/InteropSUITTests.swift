import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// The Python `smp`/`smpclient` packages, an independent SMP implementation, decode the virtual
/// SUIT device's answers over UDP (their SUIT messages are declared in the script with smp's base
/// classes: the packages have none of their own).
final class InteropSUITTests: XCTestCase {
    func testPythonSMPClientRunsTheSUITGroup() async throws {
        try ExternalTool.requirePythonModules(["smpclient", "smp", "cbor2"])
        var configuration = VirtualDeviceConfiguration(resetDelay: .zero)
        configuration.makeSUITDevice()
        let device = VirtualDevice(configuration: configuration)
        let report = try await Interop.report(running: "smpclient_suit_group.py", against: device)
        let digest = try XCTUnwrap(report.results["envelope_digest"] as? String)

        report.expect("bootloader", kind: "success", data: ["bootloader": "SUIT", "response": NSNull()])
        report.expect("manifests", kind: "success", data: ["rc": 0, "manifests": [["role": 0x10], ["role": 0x20], ["role": 0x22]]])
        XCTAssertEqual(report.data("state")?["sequence_number"] as? Int, 1)
        XCTAssertEqual(report.data("state")?["digest_algorithm"] as? Int, -16)
        XCTAssertEqual(report.data("state")?["semantic_version"] as? [Int], [1, 0, 0])
        XCTAssertEqual(report.data("state_unknown")?["rc"] as? Int, 3)
        report.expect("upload_first", kind: "success", data: ["rc": 0, "off": 40])
        report.expect("upload_wrong_offset", kind: "success", data: ["rc": 1, "off": 40])
        XCTAssertEqual(report.data("upload_rest")?["rc"] as? Int, 0)
        report.expect("poll", kind: "success", data: [
            "rc": 0, "stream_session_id": 1, "resource_id": Hex.string(Array("file://app.bin".utf8)),
        ])
        report.expect("resource", kind: "success", data: ["rc": 0, "off": 4])
        XCTAssertEqual(report.data("state_after")?["digest"] as? String, digest, "installed after the resource")
        XCTAssertEqual(report.data("state_after")?["sequence_number"] as? Int, 8)
        report.expect("cleanup", kind: "success", data: ["rc": 0])
        let resets = await device.resetCount
        XCTAssertEqual(resets, 1)
    }
}
