import Foundation
import SMPTestSupport
import XCTest

/// Output that cannot be written (docs/exit-codes.md, exit status 74): a closed, full or broken
/// standard output or error, through real pipes and redirections made by bash, never crashes
/// smpctl nor stops a flash operation.
final class OutputFailureTests: XCTestCase {
    /// Runs `script` with bash; `$SMPCTL` is the built smpctl, and the script ends with
    /// `echo status=N >&3` so that the status of smpctl inside a pipeline comes back on descriptor 3
    /// (the test reads it from a file).
    private func bash(_ script: String, timeout: TimeInterval = 60) async throws -> (status: Int32, stdout: String, stderr: String) {
        let executable = try SMPCtl.executable()
        let statusFile = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-status-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: statusFile) }
        let wrapped = "exec 3>\"\(statusFile.path)\"\n\(script)"
        let result: Result<ProcessRunner.Result, any Error> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result {
                    try ProcessRunner.run("bash", ["-c", wrapped], environment: ["SMPCTL": executable, "SMPCTL_CONNECTION": ""], timeout: timeout)
                })
            }
        }
        let run = try result.get()
        XCTAssertFalse(run.timedOut, "the script did not finish: \(script)\n\(run.stderr)")
        let reported = try String(contentsOf: statusFile, encoding: .utf8)
        let status = try XCTUnwrap(
            reported.split(separator: "\n").last.flatMap { Int32($0.replacingOccurrences(of: "status=", with: "")) },
            "no status reported: \(reported)\nstdout: \(run.stdout)\nstderr: \(run.stderr)")
        return (status, run.stdout, run.stderr)
    }

    func testAFullStandardOutputExits74WithAMessage() async throws {
        let served = try await startDevice(.zephyrForTests)
        let run = try await bash("\"$SMPCTL\" -c \(served.endpoint) os echo hello >/dev/full; echo status=$? >&3")
        XCTAssertEqual(run.status, 74, run.stderr)
        XCTAssertTrue(run.stderr.contains("cannot write to standard output: No space left on device"), run.stderr)
        XCTAssertFalse(run.stderr.contains("Fatal error"), run.stderr)
    }

    func testAClosedStandardOutputExits74AndAClosedStandardErrorChangesNothing() async throws {
        let served = try await startDevice(.zephyrForTests)
        let closedOut = try await bash("\"$SMPCTL\" -c \(served.endpoint) os echo hello >&-; echo status=$? >&3")
        XCTAssertEqual(closedOut.status, 74, closedOut.stderr)
        XCTAssertTrue(closedOut.stderr.contains("cannot write to standard output: Bad file descriptor"), closedOut.stderr)

        let closedError = try await bash("\"$SMPCTL\" -c \(served.endpoint) os echo hello 2>&-; echo status=$? >&3")
        XCTAssertEqual(closedError.status, 0)
        XCTAssertEqual(closedError.stdout, "hello\n")
        // A failure is still told by its status when its message cannot be written.
        let failing = try await bash("\"$SMPCTL\" -c udp:127.0.0.1:1 --timeout 0.2 --retries 0 os echo hello 2>&-; echo status=$? >&3")
        XCTAssertEqual(failing.status, 69, "nothing listens on port 1: connection refused")
    }

    func testAnUpgradeWhoseOutputReaderGoesAwayStillFinishes() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(UpgradeFiles.device())
        let run = try await bash(
            "\"$SMPCTL\" -c \(served.endpoint) upgrade \(app.path) 2>&1 | head -3; echo status=${PIPESTATUS[0]} >&3", timeout: 120)
        XCTAssertEqual(run.status, 74, run.stdout)
        XCTAssertEqual(run.stdout.split(separator: "\n").count, 3, run.stdout)
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 2.0.0 ac", "0/1 1.0.0 "], "the upgrade ran to its end")
    }

    func testAJSONUpgradeReadByHeadStillFinishes() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(UpgradeFiles.device())
        let run = try await bash(
            "\"$SMPCTL\" -c \(served.endpoint) upgrade \(app.path) --json 2>/dev/null | head -1; echo status=${PIPESTATUS[0]} >&3",
            timeout: 120)
        XCTAssertEqual(run.status, 74)
        XCTAssertEqual(run.stdout.split(separator: "\n").count, 1, run.stdout)
        XCTAssertTrue(run.stdout.hasPrefix("{\"schemaVersion\":1,\"event\":"), run.stdout)
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 2.0.0 ac", "0/1 1.0.0 "])
    }

    func testAnImageUploadWithProgressOnAClosedOrFullStreamCompletes() async throws {
        let image = try UploadTestImages.padded()
        let served = try await startDevice(UpgradeFiles.device())
        let quiet = try await bash("\"$SMPCTL\" -c \(served.endpoint) image upload \(image.file) 2>&-; echo status=$? >&3")
        XCTAssertEqual(quiet.status, 0, quiet.stdout)
        XCTAssertTrue(quiet.stdout.contains("uploaded \(image.file)"), quiet.stdout)
        let holds = try await slotHolds(served, slot: 1, file: image.file)
        XCTAssertTrue(holds)

        let piped = try await bash(
            "\"$SMPCTL\" -c \(served.endpoint) image upload \(image.file) --restart --json 2>/dev/full | head -1; echo status=${PIPESTATUS[0]} >&3")
        XCTAssertEqual(piped.status, 74)
        XCTAssertEqual(piped.stdout.split(separator: "\n").count, 1, piped.stdout)
        let stillHolds = try await slotHolds(served, slot: 1, file: image.file)
        XCTAssertTrue(stillHolds)
    }

    func testADownloadToAClosedPipeStopsWith74() async throws {
        let served = try await startDevice(.zephyrForTests)
        let local = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-big-\(UUID().uuidString)")
        try Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: local)
        addTeardownBlock { try? FileManager.default.removeItem(at: local) }
        assertExit(try await SMPCtl.run(["fs", "put", local.path, "/lfs1/big.bin", "-c", served.endpoint]), 0)
        let run = try await bash("\"$SMPCTL\" -c \(served.endpoint) fs get /lfs1/big.bin - | head -c 10 >/dev/null; echo status=${PIPESTATUS[0]} >&3")
        XCTAssertEqual(run.status, 74, run.stderr)
        XCTAssertTrue(run.stderr.contains("cannot write to standard output: Broken pipe"), run.stderr)
        let full = try await bash("\"$SMPCTL\" -c \(served.endpoint) fs get /lfs1/big.bin - >/dev/full; echo status=$? >&3")
        XCTAssertEqual(full.status, 74, full.stderr)
    }

    func testAWatchStopsWhenNobodyReadsItAnyMore() async throws {
        let served = try await startDevice(.zephyrForTests)
        let run = try await bash(
            "\"$SMPCTL\" -c \(served.endpoint) stat all --watch 0.05 --json | head -1; echo status=${PIPESTATUS[0]} >&3", timeout: 30)
        XCTAssertEqual(run.status, 74, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("{\"schemaVersion\":1,\"draw\":1"), run.stdout)
    }

    /// Foundation's non-throwing `FileHandle` reads and writes trap on Linux (a `try!` inside), as
    /// does `try!` itself: none may appear in the sources.
    func testNoSourceFileUsesTrappingInputOrOutput() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let forbidden: [(pattern: String, why: String)] = [
            (#"try!"#, "try! traps"),
            (#"\.write\(Data\("#, "FileHandle.write(Data) traps; use StandardStream or write(contentsOf:)"),
            (#"FileHandle\.standard(Output|Error)\.write\((?!contentsOf)"#, "FileHandle.write(_:) traps; use StandardStream"),
            (#"\.(readDataToEndOfFile|readData\(ofLength|seekToEndOfFile|closeFile|synchronizeFile)\("#, "non-throwing FileHandle calls trap"),
            (#"\.availableData\b"#, "FileHandle.availableData traps"),
            (#"\.(contents\(atPath:[^)]*\)|readToEnd\(\)|fileDescriptor)!"#, "force unwrap on I/O"),
        ]
        let expressions = try forbidden.map { (try NSRegularExpression(pattern: $0.pattern), $0.why) }
        var findings: [String] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        var checked = 0
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            checked += 1
            let text = try String(contentsOf: url, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                let range = NSRange(code.startIndex..., in: code)
                for (expression, why) in expressions where expression.firstMatch(in: code, range: range) != nil {
                    findings.append("\(url.path):\(number + 1): \(why): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        XCTAssertGreaterThan(checked, 100, "the sources were found at \(sources.path)")
        XCTAssertEqual(findings, [], findings.joined(separator: "\n"))
    }
}
