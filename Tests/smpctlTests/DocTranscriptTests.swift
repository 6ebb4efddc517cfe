import Foundation
import SMP
import SMPTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Every `smpctl` command in README.md and docs/*.md runs: against `smpctl simulate` (the
/// flavour the command needs), or the native_sim fixture where the doc says so, with the exit
/// status the doc shows (an error document's `exitCode`, `(exit N)` in its comment, `echo $?`)
/// and, for output it shows, the same top-level JSON keys or the same table columns. Commands that cannot run here are marked in
/// the doc (`<!-- not run: reason -->`, see ``DocTranscript``); none is skipped silently.
final class DocTranscriptTests: XCTestCase {
    func testEveryDocumentedCommandRuns() async throws {
        let root = ExternalTool.packageRoot
        var commands: [DocTranscript.Command] = []
        for file in try DocTranscript.documents(root: root) {
            commands += try DocTranscript.commands(in: file, root: root)
        }
        let session = try DocTranscriptSession(test: self)
        defer { session.stop() }
        var ran = 0, marked = 0, outputs = 0
        var failures: [String] = []
        var block: (String, Int)?
        for command in commands {
            if let block, block != (command.file, command.block) {
                session.endBlock()
                if block.0 != command.file || command.directives.contains("fresh device") { session.freshDevices() }
            }
            block = (command.file, command.block)
            if let reason = command.notRun {
                marked += 1
                print("not run (\(reason)): \(command.location)")
                continue
            }
            do {
                let outcome = try await session.run(command, in: commands.filter { $0.file == command.file && $0.block == command.block })
                ran += 1
                if outcome.comparedOutput { outputs += 1 }
                if let failure = outcome.failure { failures.append("\(command.location)\n  \(failure)") }
            } catch let unavailable as DocTranscriptSession.FixtureUnavailable {
                marked += 1
                print("not run (\(unavailable)): \(command.location)")
            } catch {
                failures.append("\(command.location)\n  \(error)")
            }
        }
        session.endBlock()
        print("doc transcripts: \(ran) commands ran (\(outputs) with their JSON keys or table columns compared), \(marked) marked not run, \(failures.count) failed")
        for failure in failures {
            XCTFail("documented command failed: \(failure)")
        }
        XCTAssertGreaterThan(ran, 80, "the docs hold more commands than were found")
    }

    func testMarkersNeedAReason() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-doc-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let doc = """
            <!-- not run "ble:": needs a Bluetooth adapter -->
            <!-- transcript: simulate --mynewt -->

            ```sh
            smpctl -c ble:name=x os echo hi   # a BLE one
            smpctl log list \\
              --json
            ```

            ```console
            $ smpctl os echo hi --json
            {"error":{"kind":"usage","exitCode":64}}
            $ smpctl os info
            ```
            <!-- not run: -->
            """
        try Data(doc.utf8).write(to: folder.appendingPathComponent("a.md"))
        XCTAssertThrowsError(try DocTranscript.commands(in: "a.md", root: folder)) { error in
            XCTAssertTrue("\(error)".contains("a.md:15: a `not run` marker needs a reason"), "\(error)")
        }
        try Data(doc.replacingOccurrences(of: "<!-- not run: -->", with: "").utf8).write(to: folder.appendingPathComponent("a.md"))
        let commands = try DocTranscript.commands(in: "a.md", root: folder)
        XCTAssertEqual(commands.map(\.line), [5, 6, 11, 13])
        XCTAssertEqual(commands.map(\.notRun), ["needs a Bluetooth adapter", nil, nil, nil])
        XCTAssertEqual(commands[1].text, "smpctl log list  --json")
        XCTAssertEqual(commands[1].directives, ["simulate --mynewt"])
        XCTAssertEqual(commands[2].directives, [], "a directive applies to the next block only")
        XCTAssertEqual(commands[2].output, ["{\"error\":{\"kind\":\"usage\",\"exitCode\":64}}"])
        XCTAssertEqual(commands[3].output, [])
        XCTAssertEqual(DocTranscriptSession.expectation(for: commands[2]), .status(64))
        XCTAssertEqual(DocTranscriptSession.expectation(for: commands[3]), .status(0))
    }
}
