import Foundation
import XCTest

/// `smpctl demo`: a real session against the built-in device, as text, as JSON, and with lost answers.
final class DemoCommandTests: XCTestCase {
    private let steps = [
        ("Is anyone there? (a ping)", "os echo \"hello from smpctl\""),
        ("What is it running? (like uname -a)", "os info"),
        ("Which bootloader, in which mode?", "os bootloader"),
        ("How large may a request be?", "os params"),
        ("Which threads run, and how full are their stacks?", "os taskstat"),
        ("What time does the device think it is?", "os datetime"),
    ]

    private func temporaryDirectory() throws -> String {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("smpctl-demo-\(UUID().uuidString.prefix(8))")
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func testDemoWalksThroughEveryStep() async throws {
        let samples = try temporaryDirectory()
        let run = try await SMPCtl.run(["demo", "--samples", samples], timeout: 60)
        assertExit(run, 0)
        let endpoint = try XCTUnwrap(Self.endpoint(in: run.stdout), run.description)
        var rest = Substring(run.stdout)
        for (title, command) in steps {
            // Each step, in order: its title, the equivalent command, then its result.
            let heading = "\n# \(title)\n$ smpctl -c \(endpoint) \(command)\n"
            let range = try XCTUnwrap(rest.range(of: heading), "missing or out of order: \(heading)\n\(run)")
            rest = rest[range.upperBound...]
        }
        XCTAssertTrue(run.stdout.contains("\nhello from smpctl\n"), "the echo as os echo prints it: \(run)")
        XCTAssertTrue(run.stdout.contains("Zephyr zephyr v4.1.0"), run.description)
        XCTAssertTrue(run.stdout.contains("bootloader: MCUboot"), run.description)
        XCTAssertTrue(run.stdout.contains("buffer size:        2048 bytes"), run.description)
        XCTAssertTrue(run.stdout.contains("mcumgr smp"), run.description)
        let upgrade = "\n# Install new firmware: upload, test, reset, check, confirm\n$ smpctl -c \(endpoint) upgrade app-v2.0.0.bin\n"
        XCTAssertNotNil(rest.range(of: upgrade), "the upgrade comes last\n\(run)")
        XCTAssertTrue(run.stdout.contains("upgraded with app-v2.0.0.bin"), run.description)
        XCTAssertTrue(run.stdout.contains("image 0 slot 0: 2.0.0 (active, confirmed)"), run.description)
        for step in ["[1/7] upload image 0", "[3/7] reset the device", "[7/7] check that image 0"] {
            XCTAssertTrue(run.stderr.contains(step), "no \"\(step)\" on standard error\n\(run)")
        }
        XCTAssertNotNil(run.stdout.range(of: #"Done: \d+ requests, \d+ responses, 0 resent\."#, options: .regularExpression), run.description)
        try await checkSamples(in: samples, printed: run.stdout)
    }

    /// The samples the demo left: four files and a README.txt with the commands it printed;
    /// those commands, run against `smpctl simulate` (on a free port rather than 1337),
    /// upgrade it to 1.1.0 with the .bin and then to 1.2.0 with the .hex.
    private func checkSamples(in folder: String, printed: String) async throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        XCTAssertEqual(names, ["README.txt", "app-1.1.0.bin", "app-1.1.0.hex", "app-1.2.0.bin", "app-1.2.0.hex"])
        for name in names where name != "README.txt" {
            // Each is a sound image of its version; the .bin and the .hex of a version hold the same image.
            let info = try await SMPCtl.run(["image", "info", folder + "/" + name, "--json"])
            assertSuccess(info)
            let document = try info.jsonDocument()
            XCTAssertEqual(document["hashValid"]?.bool, true, name)
            XCTAssertTrue(name.hasPrefix("app-" + (document["version"]?["text"]?.string?.replacingOccurrences(of: "+0", with: "") ?? "?")), name)
        }
        let readme = try String(contentsOfFile: folder + "/README.txt", encoding: .utf8)
        XCTAssertTrue(printed.hasSuffix(readme), "the demo ends with the README's text\n\(printed)")
        let commands = readme.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("smpctl -c udp:127.0.0.1:1337 ") }
        XCTAssertEqual(commands.count, 3, readme)
        XCTAssertTrue(readme.contains("  smpctl simulate --udp 127.0.0.1:1337 &\n"), readme)
        let (_, endpoint) = try await startSimulateProcess(["--reset-delay", "0", "--boot-time", "0"])
        for command in commands {
            let words = command.split(separator: " ").dropFirst().map { $0 == "udp:127.0.0.1:1337" ? endpoint : String($0) }
            let run = try await SMPCtl.run(words, timeout: 60)
            assertExit(run, 0)
        }
        let list = try await SMPCtl.run(["image", "list", "-c", endpoint, "--json"])
        let document = try list.jsonDocument()
        XCTAssertEqual(document["images"]?[0]?["version"]?.string, "1.2.0", "\(list)")
        XCTAssertEqual(document["images"]?[0]?["confirmed"]?.bool, true)
        XCTAssertEqual(document["images"]?[1]?["version"]?.string, "1.1.0", "the previous upgrade is the revert image")
    }

    func testDemoJSONIsOneDocument() async throws {
        let samples = try temporaryDirectory()
        let run = try await SMPCtl.run(["demo", "--json", "--samples", samples], timeout: 60)
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(
            document.keys,
            ["bootloader", "datetime", "device", "echo", "groups", "info", "params", "requests", "retransmissions", "samples", "schemaVersion", "shell", "tasks", "upgrade"])
        XCTAssertEqual(document["samples"]?["folder"]?.string, samples)
        XCTAssertEqual(document["samples"]?["files"]?.array?.count, 4)
        XCTAssertEqual(document["shell"]?["output"]?.string?.hasPrefix("Uptime: "), true, "plain output")
        XCTAssertEqual(document["upgrade"]?["images"]?[0]?["version"]?.string, "2.0.0")
        XCTAssertEqual(document["upgrade"]?["images"]?[0]?["confirmed"]?.bool, true)
        XCTAssertEqual(document["upgrade"]?["uploads"]?[0]?["match"]?.bool, true)
        XCTAssertNotNil(Self.endpoint(in: document["device"]?.string ?? ""), "\(document)")
        XCTAssertEqual(document["echo"]?.string, "hello from smpctl")
        XCTAssertEqual(document["info"]?.string?.hasPrefix("Zephyr zephyr"), true)
        XCTAssertEqual(document["bootloader"]?["bootloader"]?.string, "MCUboot")
        XCTAssertEqual(document["bootloader"]?["mode"]?.string, "swap-using-move")
        XCTAssertEqual(document["params"]?["bufferSize"]?.int, 2048)
        XCTAssertEqual(document["params"]?["bufferCount"]?.int, 4)
        XCTAssertEqual(document["tasks"]?["tasks"]?.array?.count, 9)
        XCTAssertEqual(document["tasks"]?["tasks"]?[0]?["name"]?.string, "smp_udp4")
        XCTAssertNotNil(document["datetime"]?.string)
        XCTAssertGreaterThan(try XCTUnwrap(document["requests"]?.int), 100, "the upgrade's chunks count too")
        XCTAssertEqual(document["retransmissions"]?.int, 0)
    }

    func testDemoSucceedsDespiteLostAnswers() async throws {
        let json = try await SMPCtl.run(["demo", "--drop", "0.3", "--json", "--no-samples"], timeout: 120)
        assertSuccess(json)
        let document = try json.jsonDocument()
        XCTAssertEqual(document["echo"]?.string, "hello from smpctl")
        XCTAssertNotNil(document["datetime"]?.string, "the last step completed too")
        let retransmissions = try XCTUnwrap(document["retransmissions"]?.int)
        XCTAssertGreaterThan(retransmissions, 0, "with 30 % of the answers lost, something was resent")
        XCTAssertEqual(document["upgrade"]?["images"]?[0]?["confirmed"]?.bool, true, "the upgrade completed too")
    }

    func testSamplesInAFolderThatCannotBeWrittenAreBadData() async throws {
        let run = try await SMPCtl.run(["demo", "--samples", "/proc/smpctl-demo"])
        assertExit(run, 65)
        assertStderr(run, contains: "cannot write the demo's sample firmware into /proc/smpctl-demo", "--no-samples")
    }

    func testDemoRejectsInvalidFaults() async throws {
        let run = try await SMPCtl.run(["demo", "--drop", "2"])
        assertExit(run, 64)
        assertStderr(run, contains: "--drop takes a fraction from 0 to 1, not 2")
    }

    /// `-q` is accepted as everywhere (the upgrade's steps are left out), a file of the user's in
    /// the samples folder is left as it was, with one note, and the echo prints what `os echo`
    /// prints, nothing more.
    func testQuietAndAUsersFileInTheSamplesFolder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-demo-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let readme = folder.appendingPathComponent("README.txt")
        try "my own notes\n".write(to: readme, atomically: true, encoding: .utf8)
        let run = try await SMPCtl.run(["demo", "-q", "--samples", folder.path], timeout: 120)
        assertExit(run, 0)
        XCTAssertEqual(try String(contentsOf: readme, encoding: .utf8), "my own notes\n")
        XCTAssertEqual(
            run.stderr, "note: \(readme.path) was left as it was: another file is there, not the one smpctl demo writes\n", run.description)
        XCTAssertTrue(run.stdout.contains("\nhello from smpctl\n"), run.description)
        XCTAssertFalse(run.stdout.contains("round trip"), run.description)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("app-1.2.0.hex").path))
    }

    /// With `--json`, a sample left as it was is listed under `kept`, not among the files written.
    func testAKeptSampleIsListedAsKeptInJSON() async throws {
        let folder = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let users = folder + "/app-1.2.0.bin"
        try "not an image\n".write(toFile: users, atomically: true, encoding: .utf8)
        let run = try await SMPCtl.run(["demo", "--json", "--samples", folder], timeout: 120)
        assertExit(run, 0)
        let samples = try run.jsonDocument()["samples"]
        XCTAssertEqual(samples?["kept"]?.array?.compactMap(\.string), [users])
        XCTAssertEqual(
            samples?["files"]?.array?.compactMap(\.string), ["app-1.1.0.bin", "app-1.1.0.hex", "app-1.2.0.hex"].map { folder + "/" + $0 })
        XCTAssertEqual(try String(contentsOfFile: users, encoding: .utf8), "not an image\n")
    }
}
