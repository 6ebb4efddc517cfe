import Foundation
import SMPSimulator
import XCTest

/// `smpctl upgrade --targets` on two USB boards of a rack that re-enumerate at their resets and
/// swap their device nodes (issue 17).
///
/// umockdev mocks two Zephyr CDC ACM boards, RACKA0001 on ttyACM0 and RACKB0002 on ttyACM1, each
/// tty bridged to its own virtual device served over UDP by this test (`Tests/Fixtures/udev/hotplug.py
/// rack`). When a board answers its reset it leaves sysfs and comes back on the node its neighbour
/// had (A on ttyACM1, B on ttyACM0). The real `smpctl` upgrades both at once and must find each
/// again by its serial number: the boards start with different versions (1.0.0 and 1.5.0), so a
/// board confused with its neighbour after the swap would show the neighbour's old image in its
/// after-list, or leave one board unconfirmed.
final class FleetReenumerationTests: XCTestCase {
    /// The two boards (serial numbers as hotplug.py makes them), with the version each starts with.
    private static let boards = [("board-a", "RACKA0001", "1.0.0"), ("board-b", "RACKB0002", "1.5.0")]

    func testTwoBoardsThatSwapTheirNodesAreEachFoundAgainByTheirSerialNumber() async throws {
        let rack = try await runRack("rack")
        assertExit(rack.run, 0)
        assertJSON(rack.document["nodes"], equals: ["RACKA0001": ["/dev/ttyACM0", "/dev/ttyACM1"], "RACKB0002": ["/dev/ttyACM1", "/dev/ttyACM0"]],
                   "the boards came back on each other's node")
        let bridged = try XCTUnwrap(rack.document["bridged"])
        for (index, (name, serialNumber, version)) in Self.boards.enumerated() {
            let (before, after) = ("/dev/ttyACM\(index)", "/dev/ttyACM\(1 - index)")
            XCTAssertGreaterThan(bridged["\(serialNumber) \(before)"]?.int ?? 0, rack.app.size / 384, "\(name)'s upload: \(bridged)")
            XCTAssertGreaterThanOrEqual(bridged["\(serialNumber) \(after)"]?.int ?? 0, 3, "\(name) after its reset: \(bridged)")
            let entry = try XCTUnwrap(rack.report["devices"]?[index], "\(rack.report)")
            XCTAssertEqual(entry["name"]?.string, name)
            XCTAssertEqual(entry["identity"]?["serialNumber"]?.string, serialNumber)
            XCTAssertEqual(entry["status"]?.string, "succeeded", "\(entry)")
            XCTAssertEqual(slotLines(entry["after"]), ["0/0 2.0.0 ac", "0/1 \(version) "], "\(name): \(entry)")
            let served = rack.served[index]
            let slots = try await listedSlots(served)
            XCTAssertEqual(slots, ["0/0 2.0.0 ac", "0/1 \(version) "], name)
            let holds = try await slotHolds(served, slot: 0, file: rack.app.path)
            XCTAssertTrue(holds, "\(name)'s running slot holds exactly the file")
            let resets = await served.device.resetCount
            XCTAssertEqual(resets, 1, name)
        }
        XCTAssertEqual(rack.report["summary"]?["succeeded"]?.int, 2)
    }

    /// The same rack named by a selector, `-c serial:vid=2fe3`: each match becomes a target that
    /// finds its board by serial number.
    func testASelectorNamesEachBoardByItsSerialNumber() async throws {
        let rack = try await runRack("rack", devices: ["-c", "serial:vid=2fe3"])
        assertExit(rack.run, 0)
        let entries = rack.report["devices"]?.array ?? []
        XCTAssertEqual(entries.map { $0["connection"]?.string }, ["serial:serial-number=RACKA0001", "serial:serial-number=RACKB0002"], "\(rack.report)")
        XCTAssertEqual(entries.map { $0["status"]?.string }, ["succeeded", "succeeded"], "\(rack.report)")
        XCTAssertEqual(entries.map { slotLines($0["after"]) }, Self.boards.map { ["0/0 2.0.0 ac", "0/1 \($0.2) "] }, "\(rack.report)")
    }

    /// Board B never comes back after its reset: A finishes, B is reported as failed, exit 3.
    func testABoardThatDoesNotComeBackFailsWhileItsNeighbourFinishes() async throws {
        // A must be back within it under a loaded CI too; B's wait ends after SMPKit's 15 s serial relocation anyway.
        let rack = try await runRack("rack-lost", ["--reset-timeout", "8"])
        assertExit(rack.run, 3)
        assertJSON(rack.document["nodes"], equals: ["RACKA0001": ["/dev/ttyACM0", "/dev/ttyACM1"], "RACKB0002": ["/dev/ttyACM1"]],
                   "A came back on B's node, B never")
        let (a, b) = (rack.report["devices"]?[0], rack.report["devices"]?[1])
        XCTAssertEqual(a?["status"]?.string, "succeeded", "\(rack.report)")
        XCTAssertEqual(slotLines(a?["after"]), ["0/0 2.0.0 ac", "0/1 1.0.0 "], "\(rack.report)")
        XCTAssertEqual(b?["status"]?.string, "failed", "\(rack.report)")
        XCTAssertEqual(b?["identity"]?["serialNumber"]?.string, "RACKB0002")
        let message = b?["error"]?["message"]?.string ?? ""
        XCTAssertTrue(message.contains(#/did not answer within (8|9|1[0-9])\.\d seconds after its reset/#), "\(rack.report)")
        XCTAssertEqual(b?["error"]?["name"]?.string, "device-error", "as for one device")
        XCTAssertEqual(rack.report["summary"]?["failed"]?.int, 1)
    }

    /// What one rack run gave: smpctl's run, hotplug.py's RESULT, the `--report` file, the
    /// virtual devices behind A and B, and the image.
    private struct RackRun {
        var run: SMPCtlRun
        var document: JSONNode
        var report: JSONNode
        var served: [ServedDevice]
        var app: UpgradeFiles.File
    }

    /// Serves A's and B's virtual devices, writes the targets file and runs
    /// `smpctl upgrade app-v2 --targets FILE --json --report R.json` in hotplug.py's `scenario`
    /// (`devices` in place of `--targets FILE`).
    private func runRack(_ scenario: String, _ extra: [String] = [], devices: [String]? = nil) async throws -> RackRun {
        let app = try UpgradeFiles.file("app-v2")
        var served: [ServedDevice] = []
        for (_, _, version) in Self.boards {
            // Zephyr's serial buffers; down 250 ms after answering the reset, silent for 1 s.
            var configuration = UpgradeFiles.device(resetDelay: .milliseconds(250), bootTime: .seconds(1))
            configuration.bufferSize = 384
            let parts = version.split(separator: ".").compactMap { UInt8($0) }
            configuration.images?.initialVersion = (parts[0], parts[1], 0, 0)
            served.append(try await startDevice(configuration))
        }
        let ports = try served.map { try XCTUnwrap($0.endpoint.split(separator: ":").last.map(String.init), $0.endpoint) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-rack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let targets = folder.appendingPathComponent("rack.txt").path
        let lines = Self.boards.map { "\($0.0) serial:serial-number=\($0.1)" }
        try (lines.joined(separator: "\n") + "\n").write(toFile: targets, atomically: true, encoding: .utf8)
        let reportPath = folder.appendingPathComponent("run.json").path
        let arguments = ["upgrade", app.path] + (devices ?? ["--targets", targets]) + ["--json", "--report", reportPath] + extra
        let document = try await MockedDevices.hotplug([scenario] + ports + [try SMPCtl.executable()] + arguments, timeout: 70)
        let run = SMPCtlRun(
            arguments: arguments, status: Int32(document["status"]?.int ?? -1), stdout: document["stdout"]?.string ?? "",
            stderr: document["stderr"]?.string ?? "", seconds: 0, timedOut: false)
        let data = try XCTUnwrap(FileManager.default.contents(atPath: reportPath), "no report\n\(run)")
        return RackRun(run: run, document: document, report: JSONNode(try JSONSerialization.jsonObject(with: data)), served: served, app: app)
    }
}
