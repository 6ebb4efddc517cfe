import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// Commands on many devices at once (docs/many-devices.md): in-process virtual devices named in a
/// targets file, the real smpctl binary, its summary, report files, JSON lines and exit status.
final class FleetCommandTests: XCTestCase {
    /// Three devices take the image, one refuses it (no image group): exit 3, a report for each,
    /// and a rerun skips the three that already run it.
    func testAnUpgradeOfManyDevicesSurvivesAFailureAndARerunSkipsTheFinishedOnes() async throws {
        let image = try UpgradeFiles.file("app-v2")
        var devices: [ServedDevice] = []
        for _ in 0..<3 { devices.append(try await startDevice(UpgradeFiles.device(resetDelay: .zero))) }
        var noImages = VirtualDeviceConfiguration.zephyrForTests
        noImages.images = nil
        devices.append(try await startDevice(noImages))
        let folder = try temporaryFolder()
        let targets = folder.appendingPathComponent("rack.txt").path
        let lines = devices.enumerated().map { "bay-\($0.offset + 1)  \($0.element.endpoint)" }
        try ("# the rack\n" + lines.joined(separator: "\n") + "\n").write(toFile: targets, atomically: true, encoding: .utf8)
        let json = folder.appendingPathComponent("run.json").path
        let csv = folder.appendingPathComponent("run.csv").path
        let arguments = ["upgrade", image.path, "--targets", targets, "--report", json, "--report", csv, "--progress", "plain"]

        let first = try await SMPCtl.run(arguments, timeout: 60)
        assertExit(first, 3)
        XCTAssertTrue(first.stdout.contains("4 devices in"), first.description)
        XCTAssertTrue(first.stdout.contains("3 succeeded, 1 failed"), first.description)
        assertStderr(first, contains: "bay-2: upload", "error: bay-4:", "next: run the same command again")
        let report = try reportDocument(json)
        XCTAssertEqual(report["summary"]?["succeeded"]?.int, 3)
        XCTAssertEqual(report["summary"]?["failed"]?.int, 1)
        let entries = try XCTUnwrap(report["devices"]?.array)
        XCTAssertEqual(entries.map { $0["name"]?.string }, ["bay-1", "bay-2", "bay-3", "bay-4"])
        for entry in entries.prefix(3) {
            XCTAssertEqual(entry["status"]?.string, "succeeded")
            XCTAssertEqual(entry["before"]?[0]?["version"]?.string, "1.0.0")
            XCTAssertTrue(entry["after"]?.array?.contains { $0["version"]?.string == "2.0.0" && $0["active"]?.bool == true } == true, "\(entry)")
            let phases = entry["phases"]?.array?.compactMap { $0["name"]?.string } ?? []
            XCTAssertTrue(phases.contains("upload") && phases.contains("reset"), "\(phases)")
        }
        XCTAssertEqual(entries[3]["status"]?.string, "failed")
        XCTAssertEqual(entries[3]["error"]?["code"]?.int, 2)
        XCTAssertNotNil(entries[3]["error"]?["hint"]?.string)
        let rows = try PythonCSV.rows(ofFile: csv)
        XCTAssertEqual(rows.count, 5, "\(rows)")
        let header = try XCTUnwrap(rows.first)
        XCTAssertEqual(Array(header.prefix(5)), ["index", "name", "connection", "transport", "serial_number"])
        for row in rows { XCTAssertEqual(row.count, header.count, "\(row)") }
        let bay1 = Dictionary(uniqueKeysWithValues: zip(header, rows[1]))
        XCTAssertEqual(bay1["index"], "1")
        XCTAssertEqual(bay1["name"], "bay-1")
        XCTAssertTrue(bay1["connection"]?.hasPrefix("udp:127.0.0.1:") == true, "\(bay1)")
        XCTAssertEqual(bay1["status"], "succeeded", "\(bay1)")
        XCTAssertEqual(bay1["version_before"], "1.0.0", "\(bay1)")

        let again = try await SMPCtl.run(arguments, timeout: 60)
        assertExit(again, 3)
        let rerun = try reportDocument(json)
        XCTAssertEqual(rerun["summary"]?["skipped"]?.int, 3, again.description)
        XCTAssertEqual(rerun["devices"]?[0]?["status"]?.string, "skipped")
        for device in devices.prefix(3) {
            let resets = await device.resets().count
            XCTAssertEqual(resets, 1, "a finished device was upgraded again")
        }
    }

    /// Ctrl-C in the middle: devices under way are `interrupted`, the report is written, exit 130;
    /// the same command then finishes every device.
    func testCtrlCStopsEveryDeviceAndTheSameCommandFinishesTheJob() async throws {
        let image = try UpgradeFiles.file("app-v2")
        var configuration = UpgradeFiles.device(resetDelay: .zero)
        configuration.bufferSize = 512
        var devices: [ServedDevice] = []
        for _ in 0..<3 {
            devices.append(try await startDevice(configuration, faults: FaultInjection(delay: 1, delayDuration: .milliseconds(40))))
        }
        let targets = try targetsFile(devices.map(\.endpoint))
        let json = try temporaryFolder().appendingPathComponent("run.json").path
        let arguments = ["upgrade", image.path, "--targets", targets, "--report", json, "--progress", "plain"]
        let process = try BackgroundProcess(smpctl: arguments)
        let started = await process.waitForErrorLine { $0.contains(#/: upload [2-7]\d% /#) }
        XCTAssertNotNil(started, "no upload progress\n\(process.stderr)")
        process.send(SIGINT)
        let status = await process.waitForExit(timeout: 20)
        XCTAssertEqual(status, 130, process.stderr)
        let stopped = try reportDocument(json)
        XCTAssertGreaterThan(stopped["summary"]?["interrupted"]?.int ?? 0, 0, "\(stopped)")

        let again = try await SMPCtl.run(arguments, timeout: 90)
        assertExit(again, 0)
        let finished = try reportDocument(json)
        XCTAssertEqual(finished["summary"]?["succeeded"]?.int, 3, again.description)
    }

    /// With `--json`, a device line per event and then the report; every device's own document
    /// is in its `finished` line.
    func testJSONLinesCarryEachDevicesDocumentAndEndWithTheReport() async throws {
        let devices = [try await startDevice(), try await startDevice()]
        let targets = try targetsFile(devices.map(\.endpoint))
        let run = try await SMPCtl.run(["os", "echo", "hi", "--targets", targets, "--json"])
        assertExit(run, 0)
        let lines = try run.stdout.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let finished = lines.filter { $0["status"] as? String == "finished" }
        XCTAssertEqual(finished.count, 2)
        for line in finished {
            let output = try XCTUnwrap(line["output"] as? [[String: Any]])
            XCTAssertEqual(output.first?["echo"] as? String, "hi")
        }
        let last = try XCTUnwrap(lines.last)
        XCTAssertEqual(last["event"] as? String, "report")
        XCTAssertEqual((last["summary"] as? [String: Any])?["succeeded"] as? Int, 2)
        XCTAssertEqual(last["command"] as? String, "os echo")
    }

    /// Text output: each device's lines after its name, in the order given, then the table.
    func testEachDevicesOutputIsTaggedWithItsName() async throws {
        let devices = [try await startDevice(UpgradeFiles.device()), try await startDevice(UpgradeFiles.device())]
        let targets = try targetsFile(devices.map(\.endpoint), labels: ["left", "right"])
        let run = try await SMPCtl.run(["image", "list", "--targets", targets, "-q"])
        assertExit(run, 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("left: IMAGE") == true, run.description)
        XCTAssertTrue(lines.contains { $0.hasPrefix("right: IMAGE") }, run.description)
        XCTAssertTrue(lines.contains { $0.hasPrefix("DEVICE") && $0.contains("RESULT") }, run.description)
        XCTAssertEqual(run.stderr, "", "-q prints nothing on standard error when all succeed")
    }

    /// A dry run on many devices: each device's plan, and the notes the command writes on the
    /// way, come out after the device's name (none goes to the process's streams untagged), and
    /// the JSON documents inside a `finished` line are whole documents.
    func testADryRunOnManyDevicesTagsEveryPlanAndNote() async throws {
        let image = try UpgradeFiles.file("app-v2")
        let devices = [try await startDevice(UpgradeFiles.device()), try await startDevice(UpgradeFiles.device())]
        let targets = try targetsFile(devices.map(\.endpoint), labels: ["left", "right"])
        let run = try await SMPCtl.run(["upgrade", image.path, "--dry-run", "--targets", targets, "--progress", "plain"])
        assertExit(run, 0)
        let table = run.stdout.split(separator: "\n").drop { !$0.hasPrefix("DEVICE") }
        for line in run.stdout.split(separator: "\n").prefix(while: { !$0.hasPrefix("DEVICE") }) {
            XCTAssertTrue(line.hasPrefix("left: ") || line.hasPrefix("right: "), "untagged: \(line)\n\(run.description)")
        }
        XCTAssertFalse(table.isEmpty, run.description)
        for name in ["left", "right"] {
            XCTAssertTrue(run.stdout.contains("\(name): plan (test-and-confirm):"), run.description)
            XCTAssertTrue(run.stdout.contains("\(name): (dry run: nothing was changed)"), run.description)
            XCTAssertTrue(run.stderr.contains("\(name): upgrade \(image.path): MCUboot"), run.description)
        }
        for line in run.stderr.split(separator: "\n") where line.hasPrefix("upgrade ") {
            XCTFail("a note went to standard error untagged: \(line)")
        }

        let json = try await SMPCtl.run(["upgrade", image.path, "--dry-run", "--targets", targets, "--json"])
        assertExit(json, 0)
        let finished = try json.stdout.split(separator: "\n")
            .map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            .filter { $0["status"] as? String == "finished" }
        XCTAssertEqual(finished.count, 2, json.description)
        for line in finished {
            let output = try XCTUnwrap(line["output"] as? [[String: Any]])
            XCTAssertFalse(output.isEmpty, json.description)
            XCTAssertTrue(output.allSatisfy { $0["schemaVersion"] as? Int == 1 }, "\(output)")
        }
    }

    /// `fs get` on many devices writes each device's file where `{name}` says, and refuses one
    /// local path for all.
    func testFSGetOnManyDevicesWritesOneFilePerDevice() async throws {
        var devices: [ServedDevice] = []
        for content in ["left log", "right log"] {
            var configuration = VirtualDeviceConfiguration.zephyrForTests
            configuration.fileSystem = SimulatedFileSystemConfiguration(files: ["/lfs1/log.txt": Array(content.utf8)])
            devices.append(try await startDevice(configuration))
        }
        let targets = try targetsFile(devices.map(\.endpoint), labels: ["left", "right"])
        let folder = try temporaryFolder()
        let run = try await SMPCtl.run(["fs", "get", "/lfs1/log.txt", folder.appendingPathComponent("{name}.txt").path, "--targets", targets, "-q"])
        assertExit(run, 0)
        for name in ["left", "right"] {
            let text = try String(contentsOf: folder.appendingPathComponent("\(name).txt"), encoding: .utf8)
            XCTAssertEqual(text, "\(name) log")
        }
        let shared = try await SMPCtl.run(["fs", "get", "/lfs1/log.txt", folder.appendingPathComponent("one.txt").path, "--targets", targets])
        assertExit(shared, 64)
        assertStderr(shared, contains: "put {name} in LOCAL")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("one.txt").path))
    }

    /// A path pattern reaches links and pseudo-terminals that discovery does not list: the serial
    /// links of `smpctl simulate --count`.
    func testAPathPatternReachesTheSerialLinksOfTheSimulator() async throws {
        let link = try temporaryFolder().appendingPathComponent("ttySMP").path
        let simulator = try BackgroundProcess(smpctl: ["simulate", "--serial-link", link, "--count", "2"])
        addTeardownBlock { simulator.stop() }
        let listening = await simulator.waitForLine { $0.contains("serial links") }
        XCTAssertNotNil(listening, simulator.stdout + simulator.stderr)
        let run = try await SMPCtl.run(["os", "echo", "hi", "-c", "serial:\(link)-*", "-q"])
        assertExit(run, 0)
        XCTAssertTrue(run.stdout.contains("\(link)-1: hi") && run.stdout.contains("\(link)-2: hi"), run.description)
        XCTAssertTrue(run.stdout.contains("2 devices in"), run.description)
    }

    /// Every device failing alike exits with that failure's own code, not 3.
    func testWhenEveryDeviceFailsAlikeTheExitIsThatFailures() async throws {
        let targets = try targetsFile(["udp:127.0.0.1:9", "udp:127.0.0.1:19"])
        let run = try await SMPCtl.run(["os", "echo", "x", "--targets", targets, "--timeout", "0.3", "--retries", "0"])
        XCTAssertTrue([69, 75].contains(run.status), run.description)
        XCTAssertTrue(run.stdout.contains("2 failed"), run.description)
    }

    /// Mistakes are refused before any device is touched.
    func testMistakesAreRefusedBeforeAnythingIsSent() async throws {
        let device = try await startDevice()
        let targets = try targetsFile([device.endpoint])
        let both = try await SMPCtl.run(["os", "echo", "x", "-c", device.endpoint, "--targets", targets])
        assertExit(both, 64)
        assertStderr(both, contains: "-c and --targets")
        let single = try await SMPCtl.run(["os", "echo", "x", "-c", device.endpoint, "--jobs", "2"])
        assertExit(single, 64)
        assertStderr(single, contains: "--jobs is for many devices")
        let folder = try await SMPCtl.run(["os", "echo", "x", "--targets", targets, "--report", "/nonexistent-folder/r.json"])
        assertExit(folder, 64)
        assertStderr(folder, contains: "cannot be written: the folder /nonexistent-folder does not exist")
        let jobs = try await SMPCtl.run(["os", "echo", "x", "--targets", targets, "--jobs", "0"])
        assertExit(jobs, 64)
        let downwards = try await SMPCtl.run(["os", "echo", "x", "-c", "udp:127.0.0.1:14005-14001"])
        assertExit(downwards, 64)
        assertStderr(downwards, contains: "the port range must run upwards")
        let shell = try await SMPCtl.run(["shell", "--targets", targets], input: "")
        assertExit(shell, 64)
        assertStderr(shell, contains: "runs on one device")
        let requests = await device.requests
        XCTAssertEqual(requests, 0)
    }
}
