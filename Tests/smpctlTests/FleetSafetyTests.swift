import Foundation
import SMPSimulator
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// What a many-device run must never do (docs/many-devices.md): replace a file it reads, lose a
/// targets file, let a device's name choose where a file goes, lose its report to a closed
/// terminal, serve one device twice, give up on a rack for one missing shelf, or print a
/// device's control characters raw.
final class FleetSafetyTests: XCTestCase {
    /// `--report` naming the firmware, the targets file or a hard link to either is refused
    /// before any device is asked anything, and the file is left as it was.
    func testAReportNeverReplacesAFileTheCommandReads() async throws {
        let devices = [try await startDevice(UpgradeFiles.device(resetDelay: .zero)), try await startDevice(UpgradeFiles.device(resetDelay: .zero))]
        let folder = try temporaryFolder()
        let firmware = folder.appendingPathComponent("fw.bin").path
        try FileManager.default.copyItem(atPath: try UpgradeFiles.file("app-v2").path, toPath: firmware)
        let original = try Data(contentsOf: URL(fileURLWithPath: firmware))
        let targets = try targetsFile(devices.map(\.endpoint))
        let targetsText = try String(contentsOfFile: targets, encoding: .utf8)
        let link = folder.appendingPathComponent("also-fw.bin").path
        XCTAssertEqual(Glibc.link(firmware, link), 0)

        let cases: [(report: String, says: String)] = [
            (firmware, "--report \(firmware) is a file this command reads"),
            (targets, "--report \(targets) is a file this command reads"),
            (link, "is the same file as \(firmware), which this command reads"),
        ]
        for (report, says) in cases {
            let run = try await SMPCtl.run(["upgrade", firmware, "--targets", targets, "--report", report, "-q"])
            assertExit(run, 64)
            assertStderr(run, contains: says, "nothing was sent to any device")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: firmware)), original)
        XCTAssertEqual(try String(contentsOfFile: targets, encoding: .utf8), targetsText)
        for device in devices {
            let requests = await device.requests
            XCTAssertEqual(requests, 0, "a device was asked before the report was checked")
        }
    }

    /// A report that cannot be written is refused before the run, with what is wrong with the
    /// path; one that can replaces the old file whole, keeping its permissions, and leaves no
    /// temporary file behind.
    func testReportDestinationsAreCheckedFirstAndWrittenWhole() async throws {
        let device = try await startDevice()
        let targets = try targetsFile([device.endpoint])
        let folder = try temporaryFolder()
        let plainFile = folder.appendingPathComponent("plain.txt").path
        try "x".write(toFile: plainFile, atomically: true, encoding: .utf8)
        let dangling = folder.appendingPathComponent("dangling.json").path
        XCTAssertEqual(symlink(folder.appendingPathComponent("gone/report.json").path, dangling), 0)
        let cases: [(report: String, says: String)] = [
            (folder.path, "is a folder"),
            (dangling, "is a link to \(folder.path)/gone/report.json that does not exist"),
            (folder.appendingPathComponent("missing/report.json").path, "the folder \(folder.path)/missing does not exist"),
            (plainFile + "/report.json", "\(plainFile) is not a folder"),
            ("/dev/null", "is not a regular file"),
        ]
        for (report, says) in cases {
            let run = try await SMPCtl.run(["os", "echo", "hi", "--targets", targets, "--report", report, "-q"])
            assertExit(run, 64)
            assertStderr(run, contains: says)
            XCTAssertFalse(run.stderr.contains("NSCocoaErrorDomain") || run.stderr.contains("could not be completed"), run.description)
        }
        let twice = try await SMPCtl.run(["os", "echo", "hi", "--targets", targets, "--report", plainFile, "--report", folder.path + "/./plain.txt", "-q"])
        assertExit(twice, 64)
        assertStderr(twice, contains: "is the same file as --report \(plainFile)")
        let requests = await device.requests
        XCTAssertEqual(requests, 0)

        let report = folder.appendingPathComponent("run.json").path
        try "old".write(toFile: report, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(report, 0o600), 0)
        let run = try await SMPCtl.run(["os", "echo", "hi", "--targets", targets, "--report", report, "-q"])
        assertExit(run, 0)
        XCTAssertEqual(try reportDocument(report)["summary"]?["succeeded"]?.int, 1)
        var info = stat()
        XCTAssertEqual(stat(report, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        XCTAssertEqual(left, [], "a temporary report file was left behind")
    }

    /// Every `--targets` file is read; a label used in two of them, or standard input twice, is refused.
    func testEveryTargetsFileIsRead() async throws {
        let devices = [try await startDevice(), try await startDevice(), try await startDevice()]
        let shelf1 = try targetsFile([devices[0].endpoint, devices[1].endpoint], labels: ["s1-a", "s1-b"])
        let shelf2 = try targetsFile([devices[2].endpoint], labels: ["s2-a"])
        let report = try temporaryFolder().appendingPathComponent("rack.json").path
        let run = try await SMPCtl.run(["os", "echo", "hi", "--targets", shelf1, "--targets", shelf2, "--report", report, "-q"])
        assertExit(run, 0)
        XCTAssertEqual(try reportDocument(report)["devices"]?.array?.map { $0["name"]?.string }, ["s1-a", "s1-b", "s2-a"])

        let clash = try targetsFile([devices[2].endpoint], labels: ["s1-b"])
        let relabelled = try await SMPCtl.run(["os", "echo", "hi", "--targets", shelf1, "--targets", clash, "-q"])
        assertExit(relabelled, 65)
        assertStderr(relabelled, contains: "\(clash):1: the label \"s1-b\" is also used at \(shelf1):2")
        let same = try await SMPCtl.run(["os", "echo", "hi", "--targets", shelf1, "--targets", shelf1, "-q"])
        assertExit(same, 65)
        assertStderr(same, contains: "the label \"s1-a\" is also used")
        let stdin = try await SMPCtl.run(["os", "echo", "hi", "--targets", "-", "--targets", "-", "-q"], input: devices[0].endpoint + "\n")
        assertExit(stdin, 64)
        assertStderr(stdin, contains: "--targets - is given twice")
    }

    /// `{name}` becomes one safe file name per device: a label with a slash, `..` or an escape
    /// sequence stays inside the folder and never collides with another; a name that makes LOCAL
    /// a folder, and two devices that would write one file, are refused before anything is sent.
    func testNameBecomesOneSafeFileNamePerDevice() async throws {
        let labels = ["a/b", "a_b", "..", "\u{1B}]0;x\u{07}"]
        var devices: [ServedDevice] = []
        for label in labels {
            var configuration = VirtualDeviceConfiguration.zephyrForTests
            configuration.fileSystem = SimulatedFileSystemConfiguration(files: ["/lfs1/log.txt": Array("log of \(label)".utf8)])
            devices.append(try await startDevice(configuration))
        }
        let parent = try temporaryFolder()
        let folder = parent.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let targets = try targetsFile(devices.map(\.endpoint), labels: labels)
        let run = try await SMPCtl.run(["fs", "get", "/lfs1/log.txt", folder.appendingPathComponent("{name}.txt").path, "--targets", targets, "-q"])
        assertExit(run, 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(files, ["%1B]0;x%07.txt", "%2E..txt", "a%2Fb.txt", "a_b.txt"])
        XCTAssertEqual(try String(contentsOfFile: folder.appendingPathComponent("a%2Fb.txt").path, encoding: .utf8), "log of a/b")
        XCTAssertEqual(try String(contentsOfFile: folder.appendingPathComponent("a_b.txt").path, encoding: .utf8), "log of a_b")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parent.path), ["logs"], "a file was written outside the folder")

        // A device named like a folder that exists, and two names that lead to one file.
        let pair = Array(devices.prefix(2))
        var asked: [Int] = []
        for device in pair { asked.append(await device.requests) }
        let named = try targetsFile(pair.map(\.endpoint), labels: ["left", "right"])
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("left"), withIntermediateDirectories: true)
        let intoFolder = try await SMPCtl.run(["fs", "get", "/lfs1/log.txt", folder.appendingPathComponent("{name}").path, "--targets", named, "-q"])
        assertExit(intoFolder, 64)
        assertStderr(intoFolder, contains: "where \"left\" would write, is a folder")
        try "older".write(to: folder.appendingPathComponent("right.log"), atomically: true, encoding: .utf8)
        XCTAssertEqual(symlink(folder.appendingPathComponent("right.log").path, folder.appendingPathComponent("left.log").path), 0)
        let shared = try await SMPCtl.run(["fs", "get", "/lfs1/log.txt", folder.appendingPathComponent("{name}.log").path, "--targets", named, "-q"])
        assertExit(shared, 64)
        assertStderr(shared, contains: "\"left\" and \"right\" would both write")
        for (device, before) in zip(pair, asked) {
            let requests = await device.requests
            XCTAssertEqual(requests, before, "a refused download still asked the device")
        }
    }

    /// SIGHUP (a closed terminal or SSH session) in the middle of a many-device upgrade ends it as
    /// Ctrl-C does: exit 130 and a report listing every device with its state. Five times over.
    func testSIGHUPLeavesAReportOfEveryDevice() async throws {
        let image = try UpgradeFiles.file("app-v2")
        var configuration = UpgradeFiles.device(resetDelay: .zero)
        configuration.bufferSize = 512
        for round in 1...5 {
            var devices: [ServedDevice] = []
            for _ in 0..<3 {
                devices.append(try await startDevice(configuration, faults: FaultInjection(delay: 1, delayDuration: .milliseconds(40))))
            }
            let targets = try targetsFile(devices.map(\.endpoint), labels: ["d1", "d2", "d3"])
            let report = try temporaryFolder().appendingPathComponent("run.json").path
            let process = try BackgroundProcess(smpctl: ["upgrade", image.path, "--targets", targets, "--report", report, "--jobs", "2", "--progress", "plain"])
            let started = await process.waitForErrorLine { $0.contains(#/: upload [2-7]\d% /#) }
            XCTAssertNotNil(started, "round \(round): no upload progress\n\(process.stderr)")
            process.send(SIGHUP)
            let status = await process.waitForExit(timeout: 20)
            XCTAssertEqual(status, 130, "round \(round): \(process.stderr)")
            let document = try reportDocument(report)
            let entries = try XCTUnwrap(document["devices"]?.array, "round \(round)")
            XCTAssertEqual(entries.map { $0["name"]?.string }, ["d1", "d2", "d3"], "round \(round)")
            XCTAssertTrue(entries.allSatisfy { $0["status"]?.string != nil }, "round \(round): \(document)")
            XCTAssertGreaterThan(document["summary"]?["interrupted"]?.int ?? 0, 0, "round \(round): \(document)")
        }
    }

    /// One device under two spellings (a host name and its address, a link and its node) is
    /// refused before anything is sent.
    func testOneDeviceUnderTwoSpellingsIsRefused() async throws {
        let device = try await startDevice()
        let port = try XCTUnwrap(device.endpoint.split(separator: ":").last)
        let run = try await SMPCtl.run(["os", "echo", "hi", "-c", "udp:127.0.0.1:\(port),localhost:\(port)", "-q"])
        assertExit(run, 64)
        assertStderr(run, contains: "are the same device: both have the address 127.0.0.1:\(port)")
        let targets = try targetsFile(["udp:127.0.0.1:\(port)", "udp:localhost:\(port)"])
        let fromFile = try await SMPCtl.run(["os", "echo", "hi", "--targets", targets, "-q"])
        assertExit(fromFile, 65)
        assertStderr(fromFile, contains: "(\(targets):1) and", "(\(targets):2) are the same device")

        let folder = try temporaryFolder()
        let link = folder.appendingPathComponent("console").path
        XCTAssertEqual(symlink("/dev/null", link), 0)
        let serial = try targetsFile(["serial:/dev/null", "serial:\(link)"])
        let linked = try await SMPCtl.run(["os", "echo", "hi", "--targets", serial, "-q"])
        assertExit(linked, 65)
        assertStderr(linked, contains: "are the same device: both have the device /dev/null")
        let requests = await device.requests
        XCTAssertEqual(requests, 0)
    }

    /// A line of a targets file that matches no device (an unplugged shelf) is a failed entry with
    /// its hint; every other device is served, and the report lists it in its place.
    func testASelectorThatMatchesNothingIsAFailedEntry() async throws {
        let devices = [try await startDevice(), try await startDevice()]
        let missing = try temporaryFolder().appendingPathComponent("ttyShelf").path
        let targets = try targetsFile([devices[0].endpoint, "serial:\(missing)-*", devices[1].endpoint], labels: ["bay-1", "shelf-2", "bay-3"])
        let report = try temporaryFolder().appendingPathComponent("rack.json").path
        let run = try await SMPCtl.run(["os", "echo", "hi", "--targets", targets, "--report", report, "-q"])
        assertExit(run, 3)
        let entries = try XCTUnwrap(try reportDocument(report)["devices"]?.array)
        XCTAssertEqual(entries.map { $0["name"]?.string }, ["bay-1", "shelf-2", "bay-3"])
        XCTAssertEqual(entries.map { $0["status"]?.string }, ["succeeded", "failed", "succeeded"])
        XCTAssertEqual(entries[1]["error"]?["code"]?.int, 69)
        XCTAssertNotNil(entries[1]["error"]?["hint"]?.string)
        XCTAssertTrue(run.stdout.contains("bay-1: hi") && run.stdout.contains("bay-3: hi"), run.description)
        assertStderr(run, contains: "error: shelf-2: \(targets):2:")
        for device in devices {
            let requests = await device.requests
            XCTAssertEqual(requests, 1)
        }

        let alone = try targetsFile(["serial:\(missing)-*"])
        let nothing = try await SMPCtl.run(["os", "echo", "hi", "--targets", alone, "-q"])
        assertExit(nothing, 69)
    }

    /// Control characters from a targets file or a device are printed as visible escapes, never
    /// raw: in the tagged output, the summary and the one-device output.
    func testControlCharactersFromDevicesAndFilesArePrintedVisibly() async throws {
        let device = try await startDevice()
        let title = "\u{1B}]0;owned\u{07}"
        let targets = try targetsFile([device.endpoint], labels: ["bay\u{1B}[2J"])
        let many = try await SMPCtl.run(["os", "echo", "hi\(title)", "--targets", targets, "--progress", "plain"])
        assertExit(many, 0)
        for stream in [many.stdout, many.stderr] {
            XCTAssertFalse(stream.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, many.description)
        }
        XCTAssertTrue(many.stdout.contains("bay\\e[2J: hi\\e]0;owned\\x07"), many.description)
        let one = try await SMPCtl.run(["os", "echo", "a\(title)b", "-c", device.endpoint])
        assertExit(one, 0)
        XCTAssertEqual(one.stdout, "a\\e]0;owned\\x07b\n")
        let json = try await SMPCtl.run(["os", "echo", "a\(title)b", "-c", device.endpoint, "--json"])
        XCTAssertTrue(json.stdout.contains(#"a\u001b]0;owned\u0007b"#), json.description)
    }

    /// At a terminal the live view moves the cursor; at `TERM=dumb` it cannot, and the run shows
    /// plain lines instead.
    func testADumbTerminalGetsPlainLines() async throws {
        let devices = [try await startDevice(), try await startDevice()]
        let targets = try targetsFile(devices.map(\.endpoint), labels: ["left", "right"])
        for (term, movesCursor) in [("xterm", true), ("dumb", false)] {
            let terminal = try TerminalProcess(smpctl: ["os", "echo", "hi", "--targets", targets], environment: ["TERM": term])
            addTeardownBlock { terminal.stop() }
            let status = await terminal.waitForExit()
            XCTAssertEqual(status, 0, terminal.screen)
            XCTAssertEqual(terminal.screen.contains("\u{1B}["), movesCursor, "TERM=\(term): \(terminal.screen.debugDescription)")
            XCTAssertTrue(terminal.screen.contains("left: hi"), terminal.screen)
        }
    }
}
