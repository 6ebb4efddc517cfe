import XCTest

/// Usage errors found by the argument parser: exit 64 with the usage text, or with `--json`
/// (wherever it stands) the error document, like every other failure.
final class UsageErrorTests: XCTestCase {
    func testParserErrorsGiveTheErrorDocumentWithJSON() async throws {
        for arguments in [
            ["os", "echo", "--retries", "99", "--json", "-c", "udp:127.0.0.1"],
            ["--json", "fs", "get"],
            ["settings", "write", "a", "b", "--as", "nope", "--json"],
        ] {
            let run = try await SMPCtl.run(arguments)
            let error = try assertErrorDocument(run, name: "usage-error", code: 64, messageContains: [])
            XCTAssertTrue(error["hint"]?.string?.contains("--help") == true, "\(arguments): \(error)")
        }
    }

    func testWithoutJSONOnlyTheUsageText() async throws {
        let run = try await SMPCtl.run(["os", "echo", "--retries", "99"])
        assertExit(run, 64)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.hasPrefix("error: --retries takes a whole number of retries from 0 to 10, not 99\nhint: "), run.stderr)
    }

    func testHelpIsNeverJSON() async throws {
        let run = try await SMPCtl.run(["fs", "--help", "--json"])
        assertExit(run, 0)
        XCTAssertTrue(run.stdout.contains("USAGE: smpctl fs"), run.stdout)
        XCTAssertFalse(run.stdout.contains("{\"error\""), run.stdout)
    }
}
