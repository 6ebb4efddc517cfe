import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// The Python `smpclient`/`smp` packages against the virtual device's statistics and
/// enumeration groups over UDP.
final class InteropStatisticsEnumerationTests: XCTestCase {
    func testPythonSMPClientReadsStatisticsAndEnumeration() async throws {
        try ExternalTool.requirePythonModules(["smpclient", "smp"])
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration().withOnlyCoreGroups())
        let report = try await Interop.report(running: "smpclient_stat_enum.py", against: device)

        report.expect("stat_list", kind: "success", data: ["stat_list": ["smp_svr_stats", "mgmt"]])
        let fields = report.data("stat_read")?["fields"] as? [String: Int]
        XCTAssertEqual(fields?["errors"], 0)
        XCTAssertGreaterThanOrEqual(fields?["requests"] ?? 0, 2, "the list and this read, at least")
        report.expect("enum_count", kind: "success", data: ["count": 3])
        report.expect("enum_list", kind: "success", data: ["groups": [0, 2, 10]])
        report.expect("enum_single_0", kind: "success", data: ["group": 0, "end": NSNull()])
        report.expect("enum_single_last", kind: "success", data: ["group": 10, "end": true])
        report.expect("enum_single_past", kind: "error_v2", data: ["err": ["group": 10, "rc": 4]])
        report.expect("enum_details_some", kind: "success", data: [
            "groups": [["group": 2, "name": "stat mgmt", "handlers": 2]],
        ])
        let details = report.data("enum_details")?["groups"] as? [[String: Any]]
        XCTAssertEqual(details?.map { $0["name"] as? String }, ["os mgmt", "stat mgmt", "enum mgmt"])
        // Zephyr reports statistics errors with group 63; smp models them as statistics errors.
        let unknown = report.entry("stat_unknown")
        XCTAssertTrue(unknown?["kind"] as? String == "error_v2" || unknown?["exception"] != nil, "\(unknown ?? [:])")
    }
}
