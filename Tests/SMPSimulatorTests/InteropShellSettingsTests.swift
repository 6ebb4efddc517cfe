import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// The Python `smpclient`/`smp` packages against the virtual device's shell, settings and Zephyr
/// basic groups over UDP: each answer must decode into the peer's typed response (the peer's JSON
/// dump shows byte strings as text).
final class InteropShellSettingsTests: XCTestCase {
    func testPythonSMPClientRunsShellSettingsAndEraseStorage() async throws {
        try ExternalTool.requirePythonModules(["smpclient", "smp"])
        let device = VirtualDevice()
        let report = try await Interop.report(running: "smpclient_shell_settings.py", against: device)

        report.expect("shell_echo", kind: "success", data: ["o": "\r\nfrom python\r\n", "ret": 0])
        report.expect("shell_unknown", kind: "success", data: ["o": "\r\n\u{1B}[1;31mfrobnicate: command not found\r\n\u{1B}[m", "ret": -8])
        // smp 3.x knows shell errors 0…2 only (its enum predates EMPTY_COMMAND, 3), so it cannot
        // read Zephyr's answer to an empty argv; the frame itself is `{"err": {"group": 9, "rc": 3}}`.
        XCTAssertEqual(report.entry("shell_empty")?["exception"] as? String, "SMPValidationException", "\(report.entry("shell_empty") ?? [:])")
        report.expect("read", kind: "success", data: ["val": "Zephyr", "max_size": NSNull()])
        report.expect("read_max", kind: "success", data: ["val": "Ze", "max_size": NSNull()])
        report.expect("write", kind: "success", data: [:])
        report.expect("read_written", kind: "success", data: ["val": "\u{01}\u{02}", "max_size": NSNull()])
        for name in ["commit", "save", "load", "delete", "erase_storage"] {
            report.expect(name, kind: "success", data: [:])
        }
        report.expect("read_missing", kind: "error_v2", data: ["err": ["group": 3, "rc": 3]])
        report.expect("read_no_root", kind: "error_v2", data: ["err": ["group": 3, "rc": 5]])

        let group = await device.group(.settings)
        let settings = try XCTUnwrap(group as? SettingsGroup)
        XCTAssertEqual(settings.storage.eraseCount, 1)
    }
}
