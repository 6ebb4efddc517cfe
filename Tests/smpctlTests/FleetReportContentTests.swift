import Foundation
import SMPSimulator
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
        XCTAssertEqual(run.stdout.replacing(/\d+\.\d\ds/, with: "0.00s"), """
            \(served.endpoint): hello
            DEVICE           RESULT     TIME   RETRIES  DETAIL
            \(served.endpoint)  succeeded  0.00s        0
            1 devices in 0.00s: 1 succeeded

            """.replacing("udp:", with: ""))
        let document = try reportDocument(report)
        let devices = try XCTUnwrap(document["devices"]?.array)
        XCTAssertEqual(devices.count, 1)
        XCTAssertEqual(devices.first?["status"]?.string, "succeeded")
        XCTAssertEqual(devices.first?["output"]?[0]?["response"]?.string, "hello", "the command's own result is in the report")
    }

    func testAFailedUpgradeRecordsTheImageListItLastRead() async throws {
        var configuration = UpgradeFiles.device()
        configuration.images?.checksImageHash = true
        let served = try await startDevice(configuration)
        let app = try UpgradeFiles.file("app-v2")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: app.path)))
        bytes[bytes.count / 2] ^= 0xFF
        let folder = try temporaryFolder()
        let damaged = folder.appendingPathComponent("damaged.bin").path
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let (json, csv) = (folder.appendingPathComponent("run.json").path, folder.appendingPathComponent("run.csv").path)
        let run = try await SMPCtl.run(["upgrade", damaged, "--force", "-c", served.endpoint, "--report", json, "--report", csv, "-q"], timeout: 60)
        assertExit(run, 2)
        assertStderr(run, contains: "MCUboot refused it")
        let entry = try XCTUnwrap(try reportDocument(json)["devices"]?[0])
        XCTAssertEqual(entry["status"]?.string, "failed")
        XCTAssertEqual(entry["after"]?.array?.first { $0["active"]?.bool == true }?["version"]?.string, "1.0.0", "\(entry)")
        let rows = try String(contentsOfFile: csv, encoding: .utf8).components(separatedBy: "\r\n")
        let header = rows[0].components(separatedBy: ",")
        let versionAfter = try XCTUnwrap(header.firstIndex(of: "version_after"))
        XCTAssertEqual(rows[1].components(separatedBy: ",")[versionAfter], "1.0.0", rows[1])
    }
}
