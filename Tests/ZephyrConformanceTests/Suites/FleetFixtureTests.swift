import Foundation
import SMPTestSupport
import XCTest

/// Many real devices at once (issue 17): a rack of real firmware fixtures started concurrently —
/// two native_sim serial fixtures (each its own flash file and pty), the native_sim UDP fixture
/// (127.0.0.1:1337) and two MCUboot boards (mps2_an385/serial_recovery in QEMU, `serial:tcp://`) —
/// upgraded and asked together, in one test method so that the fixtures start once.
///
/// Which devices share an image: only the boards have an image group and a bootloader, and both
/// run the same build, so one image (the fixture's application signed again as 2.0.0) fits both.
/// The native_sim builds have no image group (`image list` answers MGMT_ERR_ENOTSUP): nothing can
/// upgrade them, so they take part in the commands every device answers (`os echo`).
/// (`mps2_an385/serial_recovery_raw` runs another application build, raw UART: it would need its
/// own image and `?framing=raw`.)
final class FleetFixtureTests: XCTestCase {
    static let layout = FixtureRack.Layout(serialBays: 2, udp: true, boards: 2)
    static let newVersion = "2.0.0"
    /// A target nobody serves (UDP port 1 on the loopback: refused at once).
    static let ghost = FixtureRack.Member(label: "ghost", kind: .absent, connection: "udp:127.0.0.1:1", order: 99)
    /// Two 132 KB uploads over QEMU's UARTs at once, the resets and MCUboot's RAM load.
    static let upgradeTimeout: TimeInterval = 240

    func testRackOfRealFirmware() async throws {
        let clock = ContinuousClock()
        let begin = clock.now
        let rack = try await FixtureRack.start(Self.layout, for: self)
        let image = try rack.boardImage(version: Self.newVersion)
        let started = clock.now
        print("FleetFixtureTests: \(rack.members.count) fixtures started in \(started - begin)")
        try await runManyDevices(rack, image: image)
        // Each board runs the new image now (RAM load boots it from slot 1).
        for board in rack.members(.board) {
            try await rack.bench(board.label).expectRunning(Self.newVersion, slot: 1)
        }
        print("FleetFixtureTests: rack flow took \(clock.now - started) after the start, \(clock.now - begin) in all")
    }

    // MARK: Issue 17: one smpctl for the rack
    // Written to the issue 17 spec and docs/schema/v1 (fleetReport, manyDevices, docs/many-devices.md),
    // and run against main + fleetrun + targets merged (with a minimal TargetResolution for --targets).

    /// One `smpctl upgrade IMG --targets FILE` for both boards (exit 0, both `succeeded`, versions
    /// before and after, phases), the same command again (both `skipped`), `image list --targets`,
    /// and `os echo` on the whole rack plus a device that is not there (exit 3, that one `failed`).
    private func runManyDevices(_ rack: FixtureRack, image: URL) async throws {
        let boards = rack.members(.board)
        let boardTargets = try rack.targetsFile("boards.targets", boards)
        let jsonReport = rack.scratch.appendingPathComponent("upgrade.json")
        let csvReport = rack.scratch.appendingPathComponent("upgrade.csv")
        let upgrade = try await rack.smpctl(
            ["upgrade", image.path, "--targets", boardTargets.path, "--report", jsonReport.path, "--report", csvReport.path, "--json"],
            timeout: Self.upgradeTimeout)
        XCTAssertEqual(upgrade.status, 0, "\(upgrade)\n\(rack.logs)")
        let report = try FleetReportDocument(file: jsonReport)
        report.expectTopLevel(command: "upgrade", devices: boards.count, succeeded: boards.count)
        XCTAssertEqual(report.devices.compactMap { $0["name"] as? String }, boards.map(\.label), "target order: \(report.text)")
        for board in boards {
            let entry = report.expectDevice(board, transport: "serial", status: "succeeded")
            let before = FleetReportDocument.activeVersion(entry["before"])
            XCTAssertNotNil(before, "\(board.label): no active image before: \(report.text)")
            XCTAssertNotEqual(before, Self.newVersion, "\(board.label): \(report.text)")
            XCTAssertEqual(FleetReportDocument.activeVersion(entry["after"]), Self.newVersion, "\(board.label): \(report.text)")
            XCTAssertNotEqual(
                FleetReportDocument.activeHash(entry["before"]), FleetReportDocument.activeHash(entry["after"]),
                "\(board.label): the same image hash before and after: \(report.text)")
            let phases = FleetReportDocument.phases(of: entry).map(\.name)
            XCTAssertTrue(phases.contains("upload") && phases.contains("reset"), "\(board.label) phases \(phases): \(report.text)")
        }
        expectEventLines(upgrade, naming: boards, report: report)
        try expectCSV(csvReport, rows: boards.map { ($0.label, "succeeded", Self.newVersion) })

        // The same command again: every board already runs the image.
        let againReport = rack.scratch.appendingPathComponent("upgrade-again.json")
        let again = try await rack.smpctl(
            ["upgrade", image.path, "--targets", boardTargets.path, "--report", againReport.path, "--json"], timeout: 60)
        XCTAssertEqual(again.status, 0, "\(again)\n\(rack.logs)")
        let skipped = try FleetReportDocument(file: againReport)
        skipped.expectTopLevel(command: "upgrade", devices: boards.count, skipped: boards.count)
        for board in boards {
            let entry = skipped.expectDevice(board, transport: "serial", status: "skipped")
            XCTAssertEqual(FleetReportDocument.activeVersion(entry["before"]), Self.newVersion, "\(board.label): \(skipped.text)")
            XCTAssertFalse(FleetReportDocument.phases(of: entry).contains { $0.name == "upload" }, "\(board.label) uploaded again: \(skipped.text)")
            XCTAssertEqual(entry["note"] as? String, "already running \(Self.newVersion)", "\(board.label): \(skipped.text)")
        }

        // What each board runs, asked of all at once.
        let list = try await rack.smpctl(["image", "list", "--targets", boardTargets.path, "--json"], timeout: 60)
        XCTAssertEqual(list.status, 0, "\(list)\n\(rack.logs)")
        let finished = Self.deviceEvents(list).filter { $0["status"] as? String == "finished" }
        for board in boards {
            let event = finished.first { $0["device"] as? String == board.label }
            XCTAssertEqual(event?["result"] as? String, "succeeded", "\(board.label):\n\(list)")
            let documents = event?["output"] as? [[String: Any]] ?? []
            XCTAssertEqual(
                FleetReportDocument.activeVersion(documents.first?["images"]), Self.newVersion, "\(board.label)'s image list:\n\(list)")
        }

        // Every kind of device in one command, and one that is not there.
        let rackTargets = try rack.targetsFile("rack-and-ghost.targets", rack.members, extra: [Self.ghost.targetLine])
        let echoReport = rack.scratch.appendingPathComponent("echo.json")
        let echo = try await rack.smpctl(
            ["os", "echo", "hello", "--targets", rackTargets.path, "--report", echoReport.path, "--json"], timeout: 60)
        XCTAssertEqual(echo.status, 3, "partial failure expected: \(echo)\n\(rack.logs)")
        let echoed = try FleetReportDocument(file: echoReport)
        echoed.expectTopLevel(command: "echo", devices: rack.members.count + 1, succeeded: rack.members.count, failed: 1)
        for member in rack.members {
            echoed.expectDevice(member, transport: member.kind == .nativeSimUDP ? "udp" : "serial", status: "succeeded")
        }
        let failed = echoed.expectDevice(Self.ghost, transport: "udp", status: "failed")
        let error = failed["error"] as? [String: Any]
        XCTAssertEqual(error?["code"] as? Int, 69, "ghost error: \(echoed.text)")
        XCTAssertTrue((error?["message"] as? String ?? "").contains("127.0.0.1:1"), "ghost error: \(echoed.text)")
    }

    /// Fails unless `--json` printed device event lines for every member and ended with the report.
    private func expectEventLines(
        _ run: SMPCtlInvocation, naming members: [FixtureRack.Member], report: FleetReportDocument,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let events = Self.deviceEvents(run)
        for member in members {
            let statuses = events.filter { $0["device"] as? String == member.label }.compactMap { $0["status"] as? String }
            XCTAssertEqual(statuses.first, "started", "\(member.label)'s first event:\n\(run)", file: file, line: line)
            XCTAssertEqual(statuses.last, "finished", "\(member.label)'s last event:\n\(run)", file: file, line: line)
        }
        XCTAssertTrue(events.allSatisfy { $0["schemaVersion"] as? Int == 1 }, "event lines without schemaVersion 1:\n\(run)", file: file, line: line)
        XCTAssertEqual(run.lastJSONObject?["event"] as? String, "report", "the last --json line should be the report:\n\(run)", file: file, line: line)
        let last = run.lastJSONObject.map { FleetReportDocument(object: $0, source: "the last line of --json") }
        XCTAssertEqual(last?.summary, report.summary, "the last --json line should be the report:\n\(run)", file: file, line: line)
    }

    /// The `"event": "device"` lines of a `--json` run.
    private static func deviceEvents(_ run: SMPCtlInvocation) -> [[String: Any]] {
        run.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }.filter { $0["event"] as? String == "device" }
    }

    /// Fails unless the CSV report (read by Python's csv module) has a header and, in order, one row
    /// per device with its name, status and `version_after`.
    private func expectCSV(
        _ url: URL, rows: [(label: String, status: String, versionAfter: String)], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let lines = try PythonCSV.rows(ofFile: url.path)
        let text = "\(lines)"
        XCTAssertEqual(lines.count, rows.count + 1, "a header and \(rows.count) rows expected:\n\(text)", file: file, line: line)
        let header = lines.first ?? []
        guard let name = header.firstIndex(of: "name"), let status = header.firstIndex(of: "status"),
            let versionAfter = header.firstIndex(of: "version_after")
        else { return XCTFail("CSV header without name, status and version_after:\n\(text)", file: file, line: line) }
        for (row, expected) in zip(lines.dropFirst(), rows) {
            let fields = row.count == header.count ? row : []
            XCTAssertEqual(fields.count, header.count, "a row of \(row.count) fields under \(header.count) columns:\n\(text)", file: file, line: line)
            guard !fields.isEmpty else { continue }
            XCTAssertEqual(
                [fields[name], fields[status], fields[versionAfter]], [expected.label, expected.status, expected.versionAfter],
                "CSV row:\n\(text)", file: file, line: line)
        }
    }
}
