import Dispatch
import Foundation
import SMPTestSupport
import XCTest

/// One finished run of the real `smpctl` binary.
struct SMPCtlRun: CustomStringConvertible {
    /// The arguments it ran with (the program name not included).
    var arguments: [String]
    /// Its exit status.
    var status: Int32
    /// Standard output.
    var stdout: String
    /// Standard error.
    var stderr: String
    /// Wall-clock seconds from start to exit.
    var seconds: Double
    /// Whether the test's time limit ended it.
    var timedOut: Bool

    var description: String {
        "smpctl \(arguments.joined(separator: " ")) → exit \(status)\(timedOut ? " (killed: too slow)" : ""), "
            + String(format: "%.2f s", seconds) + "\n--- stdout:\n\(stdout)--- stderr:\n\(stderr)---"
    }

    /// Standard output as exactly one JSON object: one line, nothing before or after it.
    func jsonDocument(file: StaticString = #filePath, line: UInt = #line) throws -> JSONNode {
        guard stdout.hasSuffix("\n"), stdout.filter({ $0 == "\n" }).count == 1 else {
            XCTFail("expected exactly one line (one JSON document) on standard output\n\(self)", file: file, line: line)
            throw JSONNode.Failure.notOneDocument
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        } catch {
            XCTFail("standard output is not valid JSON: \(error)\n\(self)", file: file, line: line)
            throw JSONNode.Failure.notOneDocument
        }
        guard object is [String: Any] else {
            XCTFail("the JSON document is not an object\n\(self)", file: file, line: line)
            throw JSONNode.Failure.notOneDocument
        }
        return JSONNode(object)
    }
}

/// Runs the `smpctl` binary built by `swift build` (next to the test bundle).
enum SMPCtl {
    /// What every run starts from: no device, profile or link setting from the developer's
    /// shell, no config file (`SMPCTL_CONFIG=/dev/null`), and a cache of this test run's own
    /// (`XDG_CACHE_HOME`), so that line pacing learned on this machine before cannot slow a test.
    static let isolated = [
        "SMPCTL_CONNECTION": "", "SMPCTL_PROFILE": "", "SMPCTL_TIMEOUT": "", "SMPCTL_RETRIES": "", "SMPCTL_CONFIG": "/dev/null",
        "XDG_CACHE_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-test-cache-\(ProcessInfo.processInfo.processIdentifier)").path,
    ]

    /// The built `smpctl` (skips locally and fails in CI when it is missing).
    static func executable() throws -> String {
        try ExternalTool.builtProduct("smpctl")
    }

    /// Runs `smpctl` with `arguments`, off the Swift concurrency pool so that in-process virtual
    /// devices keep answering while the test waits.
    ///
    /// The environment is ``isolated`` merged with `environment`, so that a value in the
    /// developer's shell or config file cannot change the outcome. `input` is written to its standard input.
    /// `hostsFromFilesOnly` resolves host names from /etc/hosts only (``FilesOnlyHostResolution``),
    /// for a run that names an unknown host and must send no DNS query. `addressSpaceLimit`, in
    /// bytes, runs it under `prlimit --as`: a run that tries to hold more in memory fails.
    static func run(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:], timeout: TimeInterval = 30,
        hostsFromFilesOnly: Bool = false, addressSpaceLimit: Int? = nil, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> SMPCtlRun {
        var smpctl = try executable()
        var limited = arguments
        if let addressSpaceLimit {
            limited = ["--as=\(addressSpaceLimit)", "--", smpctl] + arguments
            smpctl = try FixtureTools.require("prlimit", package: "util-linux")
        }
        let (program, words) = hostsFromFilesOnly
            ? try FilesOnlyHostResolution.command(smpctl, limited) : (smpctl, limited)
        let environment = isolated.merging(environment) { $1 }
        let outcome: Result<(ProcessRunner.Result, Double), any Error> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let start = DispatchTime.now()
                let result = Result {
                    try ProcessRunner.run(program, words, input: input, environment: environment, timeout: timeout)
                }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
                continuation.resume(returning: result.map { ($0, seconds) })
            }
        }
        let (result, seconds) = try outcome.get()
        let run = SMPCtlRun(
            arguments: arguments, status: result.status, stdout: result.stdout, stderr: result.stderr, seconds: seconds,
            timedOut: result.timedOut)
        XCTAssertFalse(run.timedOut, "smpctl did not finish within \(timeout) s\n\(run)", file: file, line: line)
        return run
    }
}

/// Asserts an exit status, printing the whole run when it differs.
func assertExit(_ run: SMPCtlRun, _ status: Int32, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(run.status, status, "wrong exit status\n\(run)", file: file, line: line)
}

/// Asserts that standard error holds every fragment.
func assertStderr(_ run: SMPCtlRun, contains fragments: String..., file: StaticString = #filePath, line: UInt = #line) {
    for fragment in fragments {
        XCTAssertTrue(run.stderr.contains(fragment), "standard error lacks \"\(fragment)\"\n\(run)", file: file, line: line)
    }
}

/// Asserts a run succeeded quietly: exit 0 and nothing on standard error.
func assertSuccess(_ run: SMPCtlRun, file: StaticString = #filePath, line: UInt = #line) {
    assertExit(run, 0, file: file, line: line)
    XCTAssertEqual(run.stderr, "", "unexpected text on standard error\n\(run)", file: file, line: line)
}

/// Asserts the `{"schemaVersion": 1, "error": {...}}` document of a failed `--json` run: its name,
/// its code (the exit status), a message holding every fragment, a hint, and only the documented
/// members. Returns the `error` object.
@discardableResult
func assertErrorDocument(
    _ run: SMPCtlRun, name: String, code: Int32, messageContains fragments: [String] = [],
    file: StaticString = #filePath, line: UInt = #line
) throws -> JSONNode {
    assertExit(run, code, file: file, line: line)
    let document = try run.jsonDocument(file: file, line: line)
    XCTAssertEqual(document.keys, ["error", "schemaVersion"], "an error document holds only \"error\"", file: file, line: line)
    XCTAssertEqual(document["schemaVersion"]?.int, 1, file: file, line: line)
    let error = try XCTUnwrap(document["error"], file: file, line: line)
    XCTAssertEqual(error["name"]?.string, name, "\(run)", file: file, line: line)
    XCTAssertEqual(error["code"]?.int, Int(code), file: file, line: line)
    let message = try XCTUnwrap(error["message"]?.string, "message must be a string", file: file, line: line)
    for fragment in fragments {
        XCTAssertTrue(message.contains(fragment), "message lacks \"\(fragment)\": \(message)", file: file, line: line)
    }
    XCTAssertNotNil(error["hint"]?.string, "hint must be a string", file: file, line: line)
    XCTAssertTrue(
        Set(error.keys ?? []).isSubset(of: ["code", "name", "message", "hint", "device"]), "undocumented members: \(error)",
        file: file, line: line)
    // The human message still goes to standard error.
    XCTAssertTrue(run.stderr.hasPrefix("error: "), "standard error lacks the message\n\(run)", file: file, line: line)
    return error
}
