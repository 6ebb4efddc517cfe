import Foundation
import XCTest

/// `-v`, `-vv` and `--log-file` against the virtual device.
final class LoggingOptionsTests: XCTestCase {
    func testVerboseShowsTheConnectionAndEachRequestAndResponse() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["os", "echo", "hi", "-c", served.endpoint, "-v"])
        assertExit(run, 0)
        XCTAssertEqual(run.stdout, "hi\n")
        XCTAssertTrue(run.stderr.contains("smp: opened \(served.endpoint)"), run.description)
        XCTAssertTrue(run.stderr.contains(/smp: → os echo op=write seq=\d+ size=14\n/), run.description)
        XCTAssertTrue(run.stderr.contains(/smp: ← os echo op=write-response seq=\d+ size=15 rc=0 ms=\d+\.\d\n/), run.description)
        XCTAssertTrue(run.stderr.contains("smp: closing the connection to \(served.endpoint)"), run.description)
        XCTAssertFalse(run.stderr.contains("payload"), "payloads are for -vv: \(run)")
    }

    func testVeryVerboseAddsThePayloadsAsJSONButNoHex() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["os", "echo", "hi", "-c", served.endpoint, "-vv"])
        assertExit(run, 0)
        XCTAssertTrue(run.stderr.contains(/smp: request payload seq=\d+ payload=\{"d":"hi"\}\n/), run.description)
        XCTAssertTrue(run.stderr.contains(/smp: response payload seq=\d+ payload=\{"r":"hi"\}\n/), run.description)
        XCTAssertFalse(run.stderr.contains("0a 00 00"), "hex frames are for -vvv: \(run)")
    }

    func testTheLogFileHoldsJSONLinesWithoutVerbosity() async throws {
        let served = try await startDevice()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("smpctl.jsonl").path
        let run = try await SMPCtl.run(["os", "echo", "hi", "-c", served.endpoint, "--log-file", path])
        assertSuccess(run)
        let records = try Self.records(path)
        XCTAssertTrue(records.allSatisfy { Set($0.keys) == ["time", "level", "label", "message", "metadata"] }, "\(records)")
        for record in records {
            let time = try XCTUnwrap(record["time"] as? String)
            XCTAssertNotNil(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/), time)
            XCTAssertEqual(record["label"] as? String, "smp")
        }
        let response = try XCTUnwrap(records.first { $0["message"] as? String == "← os echo" }, "\(records)")
        let metadata = try XCTUnwrap(response["metadata"] as? [String: Any])
        XCTAssertEqual(response["level"] as? String, "debug")
        XCTAssertEqual(metadata["rc"] as? Int, 0)
        XCTAssertEqual(metadata["op"] as? String, "write-response")
        XCTAssertNotNil(metadata["seq"] as? Int)
        XCTAssertNotNil(metadata["ms"] as? Double)
        XCTAssertFalse(records.contains { ($0["metadata"] as? [String: Any])?["payload"] != nil }, "payloads only with -vv")

        // -vv adds the payloads, appended to the same file.
        let verbose = try await SMPCtl.run(["os", "echo", "again", "-c", served.endpoint, "--log-file", path, "-vv"])
        assertExit(verbose, 0)
        let more = try Self.records(path)
        XCTAssertGreaterThan(more.count, records.count)
        let payload = try XCTUnwrap(more.compactMap { ($0["metadata"] as? [String: Any])?["payload"] as? [String: Any] }.first)
        XCTAssertEqual(payload["d"] as? String, "again")
    }

    func testALogFileThatCannotBeOpenedIsAUsageError() async throws {
        let run = try await SMPCtl.run(["os", "echo", "hi", "-c", "udp:127.0.0.1:9", "--log-file", "/nonexistent/dir/log.jsonl"])
        assertExit(run, 64)
        XCTAssertTrue(run.stderr.contains("cannot open the log file /nonexistent/dir/log.jsonl: No such file or directory"), run.description)
    }

    /// Every line of the file, each parsed as a JSON object.
    private static func records(_ path: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.hasSuffix("\n"))
        return try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try XCTUnwrap(object as? [String: Any], "not an object: \(line)")
        }
    }
}
