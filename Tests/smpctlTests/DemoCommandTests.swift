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

    func testDemoWalksThroughEveryStep() async throws {
        let run = try await SMPCtl.run(["demo"], timeout: 60)
        assertExit(run, 0)
        let endpoint = try XCTUnwrap(Self.endpoint(in: run.stdout), run.description)
        var rest = Substring(run.stdout)
        for (title, command) in steps {
            // Each step, in order: its title, the equivalent command, then its result.
            let heading = "\n# \(title)\n$ smpctl -c \(endpoint) \(command)\n"
            let range = try XCTUnwrap(rest.range(of: heading), "missing or out of order: \(heading)\n\(run)")
            rest = rest[range.upperBound...]
        }
        XCTAssertTrue(run.stdout.contains("hello from smpctl   (round trip "), run.description)
        XCTAssertTrue(run.stdout.contains("Zephyr zephyr v4.1.0"), run.description)
        XCTAssertTrue(run.stdout.contains("bootloader: MCUboot"), run.description)
        XCTAssertTrue(run.stdout.contains("buffer size:        2048 bytes"), run.description)
        XCTAssertTrue(run.stdout.contains("mcumgr smp"), run.description)
        let upgrade = "\n# Install new firmware: upload, test, reset, check, confirm\n$ smpctl -c \(endpoint) upgrade app-v2.0.0.bin\n"
        XCTAssertNotNil(rest.range(of: upgrade), "the upgrade comes last\n\(run)")
        XCTAssertTrue(run.stdout.contains("upgraded with app-v2.0.0.bin"), run.description)
        XCTAssertTrue(run.stdout.contains("image 0 slot 0: 2.0.0 (active, confirmed)"), run.description)
        for step in ["[1/7] upload image 0", "[3/7] reset the device", "[7/7] done"] {
            XCTAssertTrue(run.stderr.contains(step), "no \"\(step)\" on standard error\n\(run)")
        }
        XCTAssertNotNil(run.stdout.range(of: #"Done: \d+ requests, \d+ responses, 0 resent\."#, options: .regularExpression), run.description)
    }

    func testDemoJSONIsOneDocument() async throws {
        let run = try await SMPCtl.run(["demo", "--json"], timeout: 60)
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(
            document.keys, ["bootloader", "datetime", "device", "echo", "groups", "info", "params", "requests", "retransmissions", "schemaVersion", "shell", "tasks", "upgrade"])
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
        let json = try await SMPCtl.run(["demo", "--drop", "0.3", "--json"], timeout: 120)
        assertSuccess(json)
        let document = try json.jsonDocument()
        XCTAssertEqual(document["echo"]?.string, "hello from smpctl")
        XCTAssertNotNil(document["datetime"]?.string, "the last step completed too")
        let retransmissions = try XCTUnwrap(document["retransmissions"]?.int)
        XCTAssertGreaterThan(retransmissions, 0, "with 30 % of the answers lost, something was resent")
        XCTAssertEqual(document["upgrade"]?["images"]?[0]?["confirmed"]?.bool, true, "the upgrade completed too")
    }

    func testDemoRejectsInvalidFaults() async throws {
        let run = try await SMPCtl.run(["demo", "--drop", "2"])
        assertExit(run, 64)
        assertStderr(run, contains: "--drop must be a fraction from 0 to 1")
    }
}
