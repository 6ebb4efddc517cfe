import Foundation
import SMPTestSupport
import XCTest

/// What a many-device report holds (issue 30): a run of one device writes one too (a station with
/// one board), each device's entry carries the command's own results, and a failed upgrade
/// records what the device runs when the upgrade read it after its last change.
final class FleetReportContentTests: XCTestCase {
    func testOneDeviceWithAReportIsARunOfOneWhoseReportHasTheCommandsResult() async throws {
        let served = try await startDevice()
        let report = try temporaryFolder().appendingPathComponent("station.json").path
        let run = try await SMPCtl.run(["os", "echo", "hello", "-c", served.endpoint, "--report", report, "-q"])
        assertExit(run, 0)
        let name = served.endpoint
        let padding = String(repeating: " ", count: name.count - "DEVICE".count)
        XCTAssertEqual(run.stdout.replacing(/\d+\.\d\ds/, with: "0.00s"), """
            \(name): hello
            DEVICE\(padding)  RESULT      TIME  RETRIES  DETAIL
            \(name)  succeeded  0.00s        0
            1 device in 0.00s: 1 succeeded

            """)
        XCTAssertEqual(run.stderr, "")
        let document = try reportDocument(report)
        let devices = try XCTUnwrap(document["devices"]?.array)
        XCTAssertEqual(devices.count, 1)
        XCTAssertEqual(devices.first?["status"]?.string, "succeeded")
        XCTAssertEqual(devices.first?["output"]?[0]?["echo"]?.string, "hello", "the command's own result is in the report")
    }

    /// `os info` without `--json`: the report still holds the document `--json` prints, fields and all.
    func testAReportHoldsOSInfosDocumentWithoutJSON() async throws {
        let served = try await startDevice()
        let report = try temporaryFolder().appendingPathComponent("station.json").path
        let run = try await SMPCtl.run(["os", "info", "-c", served.endpoint, "--report", report, "-q"])
        assertExit(run, 0)
        let output = try XCTUnwrap(try reportDocument(report)["devices"]?[0]?["output"]?[0])
        XCTAssertEqual(output["format"]?.string, "a")
        XCTAssertEqual(output["fields"]?["kernelName"]?.string, "Zephyr")
        XCTAssertEqual(output["output"]?.string.map { run.stdout.hasPrefix(served.endpoint + ": " + $0 + "\n") }, true, run.description)
    }

    func testAFailedUpgradeRecordsTheImageListItLastRead() async throws {
        let served = try await startDevice(UpgradeFiles.device(resetDelay: .zero))
        assertExit(try await SMPCtl.run(["upgrade", try UpgradeFiles.file("app-v2").path, "-c", served.endpoint, "-q"], timeout: 60), 0)
        let folder = try temporaryFolder()
        let (json, csv) = (folder.appendingPathComponent("run.json").path, folder.appendingPathComponent("run.csv").path)
        let older = try UpgradeFiles.file("app-v1").path
        let run = try await SMPCtl.run(["upgrade", older, "--newer-only", "-c", served.endpoint, "--report", json, "--report", csv, "-q"], timeout: 60)
        assertExit(run, 4)
        assertStderr(run, contains: "is not newer than the running 2.0.0")
        let entry = try XCTUnwrap(try reportDocument(json)["devices"]?[0])
        XCTAssertEqual(entry["status"]?.string, "failed")
        XCTAssertEqual(entry["after"]?.array?.first { $0["active"]?.bool == true }?["version"]?.string, "2.0.0", "\(entry)")
        let rows = try PythonCSV.rows(ofFile: csv)
        XCTAssertEqual(rows.count, 2, "a header and one device: \(rows)")
        let header = try XCTUnwrap(rows.first)
        let versionAfter = try XCTUnwrap(header.firstIndex(of: "version_after"))
        XCTAssertEqual(rows.last?.count, header.count, "\(rows)")
        XCTAssertEqual(rows.last?[versionAfter], "2.0.0", "\(rows)")
    }
}
