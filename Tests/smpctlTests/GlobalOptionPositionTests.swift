import XCTest

/// Device options work before the subcommand too (`smpctl -c udp:… os echo`), as the docs,
/// the demo and `simulate` show them.
final class GlobalOptionPositionTests: XCTestCase {
    func testConnectionBeforeTheSubcommand() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["-c", served.endpoint, "os", "echo", "first"])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "first\n")
        let long = try await SMPCtl.run(["--connection=\(served.endpoint)", "os", "info", "--format", "s"])
        assertSuccess(long)
        XCTAssertEqual(long.stdout, "Zephyr\n")
    }

    func testEveryGlobalOptionBeforeTheSubcommand() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["-c", served.endpoint, "--timeout", "2", "--retries", "1", "--json", "-vvv", "os", "params"])
        assertExit(run, 0)
        XCTAssertEqual(try run.jsonDocument()["bufferSize"]?.int, 2048)
        XCTAssertTrue(run.stderr.contains("→ "), "-vvv applies\n\(run)")
    }

    func testBeforeAndAfterMix() async throws {
        let served = try await startDevice(uptime: { .zero })
        let run = try await SMPCtl.run(["-c", served.endpoint, "os", "datetime", "--json"])
        assertSuccess(run)
        XCTAssertEqual(try run.jsonDocument()["datetime"]?.string, "2024-05-01T12:30:00.000")
    }

    func testLeadingOptionsAreValidatedLikeTheOthers() async throws {
        let malformed = try await SMPCtl.run(["-c", "tcp:x", "os", "echo"])
        assertExit(malformed, 64)
        assertStderr(malformed, contains: "\"tcp\": unknown transport")
        let timeout = try await SMPCtl.run(["--timeout", "0", "-c", "udp:127.0.0.1", "os", "echo"])
        assertExit(timeout, 64)
        assertStderr(timeout, contains: "--timeout takes a number of seconds greater than 0 and at most 3600, not 0")
    }

    func testLeadingJSONAsksRawForAJSONDocument() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["--json", "-c", served.endpoint, "raw", "--group", "os", "--command", "0", "--op", "write", "--payload-json", "{\"d\":\"r\"}"])
        assertSuccess(run)
        XCTAssertEqual(try run.jsonDocument()["response"]?["r"]?.string, "r")
    }

    func testLeadingConnectionWinsOverTheEnvironment() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["-c", served.endpoint, "os", "echo", "flag"], environment: ["SMPCTL_CONNECTION": "tcp:nowhere"])
        assertSuccess(run)
    }

    func testLeadingJSONReachesDemo() async throws {
        let run = try await SMPCtl.run(["--json", "demo"])
        assertSuccess(run)
        XCTAssertEqual(try run.jsonDocument()["echo"]?.string, "hello from smpctl")
    }
}
