import SMP
import SMPFleet
import SMPKit
import SMPTestSupport
import XCTest
@testable import smpctl

/// The live view, the summary's exit status and the CSV report of a many-device run, from
/// records made up for each case.
final class FleetViewTests: XCTestCase {
    func testTheLiveViewFitsTheTerminalAndShowsRunningDevicesFirst() throws {
        var devices = (1...100).map { FleetDeviceState(name: "device-with-a-long-name-\($0)") }
        for index in 0..<40 { devices[index].record = try record(index, .succeeded) }
        devices[41].record = try record(41, .failed, message: "no response within 9.0 s (3 tries of 3 s each)")
        for index in 90..<100 {
            devices[index].started = true
            devices[index].apply(.phase(index: index, name: "upload"))
            devices[index].apply(.progress(index: index, sent: 30_000, total: 60_000, bytesPerSecond: 40_960))
        }
        for width in [20, 60, 200] {
            for height in [3, 12, 40] {
                let lines = FleetLiveView.lines(devices, command: "upgrade", elapsed: 12.5, width: width, height: height)
                XCTAssertLessThanOrEqual(lines.count, max(2, height - 1), "\(width)x\(height)")
                for line in lines { XCTAssertLessThan(line.count, width, "\(width)x\(height): \(line)") }
            }
        }
        let lines = FleetLiveView.lines(devices, command: "upgrade", elapsed: 12.5, width: 120, height: 14)
        XCTAssertTrue(lines[0].hasPrefix("upgrade: 100 devices, 40 succeeded, 1 failed, 10 running, 49 waiting"), lines[0])
        XCTAssertTrue(lines[1].contains("FAILED after 1.50s: no response"), "shown in the order given: \(lines[1])")
        XCTAssertTrue(lines[2].contains("upload") && lines[2].contains(" 50%") && lines[2].contains("40.0 KiB/s"), lines[2])
        XCTAssertTrue(lines.contains { $0.contains("FAILED") }, "\(lines)")
        XCTAssertEqual(lines.last, "… and 89 more")
    }

    func testTheExitStatusSaysWhetherAllSomeOrNoneSucceeded() throws {
        XCTAssertNil(summary([.succeeded, .skipped]).exitStatus)
        XCTAssertEqual(summary([.succeeded, .failed]).exitStatus, 3)
        XCTAssertEqual(summary([.failed, .failed]).exitStatus, 75, "every device failed alike: that failure's code")
        XCTAssertEqual(summary([.failed, .failed], codes: [75, 69]).exitStatus, 3)
        XCTAssertEqual(summary([.succeeded, .interrupted, .notStarted]).exitStatus, 130)
    }

    func testCSVFieldsAreQuotedWhenTheyMustBe() {
        XCTAssertEqual(FleetReport.csvField("plain"), "plain")
        XCTAssertEqual(FleetReport.csvField("a, b"), "\"a, b\"")
        XCTAssertEqual(FleetReport.csvField("say \"hi\"\nnow"), "\"say \"\"hi\"\"\nnow\"")
        XCTAssertEqual(DeviceRecord.decimals(3.2049), "3.205")
        XCTAssertEqual(DeviceRecord.decimals(0.0005), "0.001")
    }

    func testPythonsCSVReaderReadsBackEveryField() throws {
        let messages = ["plain", "a, b", "say \"hi\"", "two\nlines", "CR LF\r\ninside, \"quoted\"", ""]
        var records = try messages.indices.map { try record($0, .failed, message: messages[$0]) }
        records[1].note = "noted, with a comma"
        let report = FleetReport(startedAt: 0, seconds: 1, devices: records, jobs: 2)
        let rows = try PythonCSV.rows(of: report.csv)
        XCTAssertEqual(rows, [FleetReport.csvHeader] + records.map(\.csvRow))
        let error = try XCTUnwrap(FleetReport.csvHeader.firstIndex(of: "error"))
        XCTAssertEqual(rows.dropFirst().map { $0[error] }, messages)
    }

    private func summary(_ outcomes: [DeviceOutcome], codes: [Int32]? = nil) -> FleetSummary {
        let records = outcomes.enumerated().map { index, outcome in
            var made = try? record(index, outcome, message: "failed")
            if outcome == .failed { made?.failure?.code = codes?[index] ?? 75 }
            return made
        }.compactMap { $0 }
        return FleetSummary(report: FleetReport(startedAt: 0, seconds: 1, devices: records, jobs: 2), command: "upgrade", file: nil)
    }

    private func record(_ index: Int, _ outcome: DeviceOutcome, message: String? = nil) throws -> DeviceRecord {
        let target = DeviceTarget(connection: try ConnectionString(parsing: "udp:127.0.0.1:\(14_000 + index)"))
        return DeviceRecord(
            index: index, target: target, outcome: outcome, before: nil, after: nil, phases: [], retries: 0, seconds: 1.5,
            failure: outcome == .failed ? DeviceFailure(code: 75, name: "timeout", message: message ?? "", hint: nil) : nil, note: nil)
    }
}
