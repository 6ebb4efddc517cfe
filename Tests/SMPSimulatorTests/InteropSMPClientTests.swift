import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// The Python `smpclient`/`smp` packages, an independent SMP implementation, against the virtual
/// device over UDP: every OS command with its typed response.
final class InteropSMPClientTests: XCTestCase {
    func testPythonSMPClientRunsTheOSGroup() async throws {
        try ExternalTool.requirePythonModules(["smpclient", "smp"])
        let device = VirtualDevice()
        let report = try await Interop.report(running: "smpclient_os_group.py", against: device)

        report.expect("echo", kind: "success", data: ["r": "hello interop"])
        report.expect("echo_v1", kind: "success", version: 0, data: ["r": "old protocol"])
        report.expect("params", kind: "success", data: ["buf_size": 2048, "buf_count": 4])
        report.expect("info_default", kind: "success", data: ["output": "Zephyr"])
        report.expect("info_all", kind: "success", data: [
            "output": "Zephyr zephyr v4.1.0 4.1.0 2025-03-07T09:30:00 arm cortex-m33 virtual_smp_device Zephyr",
        ])
        report.expect("info_invalid", kind: "error_v2", data: ["err": ["group": 0, "rc": 2]])
        report.expect("bootloader", kind: "success", data: ["bootloader": "MCUboot", "response": NSNull()])
        report.expect("bootloader_mode", kind: "success", data: ["mode": 3, "no-downgrade": NSNull()])
        report.expect("bootloader_unknown_query", kind: "error_v2", data: ["err": ["group": 0, "rc": 3]])
        report.expect("datetime_unset", kind: "error_v2", data: ["err": ["group": 0, "rc": 4]])
        report.expect("datetime_set", kind: "success", data: [:])
        report.expect("datetime_invalid", kind: "error_v1", data: ["rc": 3, "rsn": NSNull()])
        report.expect("reset", kind: "success", data: [:])

        let time = report.data("datetime_get")?["datetime"] as? String
        XCTAssertTrue(time?.hasPrefix("2025-07-14T08:30:0") == true, "datetime: \(time ?? "none")")
        let tasks = report.data("taskstat")?["tasks"] as? [String: [String: Any]]
        XCTAssertEqual(Set(tasks?.keys ?? [:].keys), Set(SimulatedTask.zephyrDefaults.map(\.name)))
        XCTAssertEqual(tasks?["idle"]?["prio"] as? Int, 15)
        XCTAssertEqual(tasks?["rx_q[0]"]?["stksiz"] as? Int, 384)
        // smp's own model for the mode answer requires "bootloader", which Zephyr does not send.
        let stock = report.entry("bootloader_mode_stock")
        XCTAssertTrue(stock?["exception"] != nil || stock?["kind"] as? String == "success", "\(stock ?? [:])")

        let resets = await device.resetCount
        XCTAssertEqual(resets, 1)
    }
}
