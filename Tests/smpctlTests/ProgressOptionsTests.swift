import Foundation
import SMPTestSupport
import XCTest

/// `--progress plain|none|bar` and `-q` when standard error is a pipe.
final class ProgressOptionsTests: XCTestCase {
    func testPlainProgressIsLinesWithoutControlCharacters() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(UpgradeFiles.device())
        let run = try await SMPCtl.run(["upgrade", app.path, "-c", served.endpoint, "--progress", "plain"])
        assertExit(run, 0)
        XCTAssertFalse(run.stderr.contains("\r") || run.stderr.contains("\u{1B}"), run.description)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertFalse(lines.contains { $0.contains("%") }, "a transfer shorter than 10 s prints no progress line: \(run)")
        let steps = lines.compactMap { $0.firstMatch(of: #/^\[(\d+)/(\d+)\] /#).map { "\($0.1)/\($0.2)" } }
        XCTAssertEqual(steps, (1...7).map { "\($0)/7" }, "one line per step: \(run)")
        XCTAssertTrue(run.stdout.hasPrefix("upgraded with"), run.description)
    }

    func testQuietLeavesTheResultAndNothingElse() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(UpgradeFiles.device())
        let quiet = try await SMPCtl.run(["-q", "upgrade", app.path, "-c", served.endpoint])
        XCTAssertEqual(quiet.status, 0, quiet.description)
        XCTAssertEqual(quiet.stderr, "", quiet.description)
        XCTAssertTrue(quiet.stdout.hasPrefix("upgraded with"), quiet.description)
        // An error is still printed.
        let failed = try await SMPCtl.run(["image", "upload", "/nonexistent/app.bin", "-q", "-c", served.endpoint])
        XCTAssertNotEqual(failed.status, 0, failed.description)
        XCTAssertTrue(failed.stderr.hasPrefix("error: "), failed.description)
    }

    func testNoneAndBarAndQuietWithJSON() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let upload = { (options: [String]) async throws -> SMPCtlRun in
            let served = try await self.startDevice(UpgradeFiles.device())
            return try await SMPCtl.run(["image", "upload", app.path, "-c", served.endpoint] + options)
        }
        let none = try await upload(["--progress=none"])
        assertExit(none, 0)
        XCTAssertEqual(none.stderr, "", "the result on standard output says what was uploaded: \(none)")
        let bar = try await upload(["--progress", "bar"])
        assertExit(bar, 0)
        XCTAssertTrue(bar.stderr.contains(/\rapp-v2\.bin  \[[#-]{10,}\]\s+100%/), "a bar even into a pipe when asked, labelled with the file: \(bar)")
        XCTAssertTrue(bar.stderr.hasSuffix("\r\u{1B}[K"), "wiped at the end: \(bar)")
        let json = try await upload(["--json", "-q"])
        assertSuccess(json)
        let events = json.stdout.split(separator: "\n")
        XCTAssertTrue(events.first?.contains(#""event":"progress""#) == true, "-q leaves --json as it is: \(json)")
        XCTAssertTrue(events.last?.contains(#""event":"done""#) == true, json.description)
    }

    func testAnUnknownModeIsAUsageError() async throws {
        let run = try await SMPCtl.run(["image", "upload", "x.bin", "--progress", "fancy", "-c", "udp:127.0.0.1:9"])
        XCTAssertEqual(run.status, 64, run.description)
        XCTAssertTrue(run.stderr.contains("--progress"), run.description)
    }
}
