import Foundation
import SMPTestSupport
import XCTest

/// The SUIT envelopes the tests use, checked by a validator we did not write: `pycddl` (the Rust
/// `cddl` crate) with the CDDL of the IETF SUIT manifest draft -34, the key numbers NCS uses
/// (`Tests/Scripts/suit/check_envelope_cddl.py`, `suit-manifest.cddl`).
final class SUITEnvelopeCDDLTests: XCTestCase {
    private struct Report: Decodable {
        struct Verdict: Decodable {
            var valid: Bool
            var error: String?
        }

        var files: [String: Verdict]
    }

    /// What the checker says of `paths`, with its exit status checked.
    private func check(_ paths: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Report {
        try ExternalTool.requirePythonModules(["cbor2", "pycddl"])
        let run = try ProcessRunner.run(ExternalTool.python, [ExternalTool.script("suit/check_envelope_cddl.py")] + paths, timeout: 120)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr, file: file, line: line)
        return try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))
    }

    /// The files `make_suit_set.py` makes for the CLI tests.
    func testEveryTestEnvelopeIsValidSUIT() throws {
        try ExternalTool.requirePythonModules(["cbor2"])
        let report = try check(try SUITFiles.all().values.map(\.path).filter { $0.hasSuffix(".suit") || $0.hasSuffix(".zip") }.sorted())
        // Three envelopes and the root envelope of each of the two packages.
        XCTAssertEqual(
            report.files.keys.map { URL(fileURLWithPath: $0).lastPathComponent }.sorted(), ["app-seq2.suit", "bad-digest.suit", "dfu_suit.zip:root.suit", "missing.zip:root.suit", "plain-seq4.suit"])
        for (name, verdict) in report.files {
            XCTAssertTrue(verdict.valid, "\(name): \(verdict.error ?? "")")
        }
    }

    /// The envelopes the library's and the simulator's tests build (``SUITTestEnvelope``).
    func testTheEnvelopesTheSwiftTestsBuildAreValidSUIT() throws {
        let folder = try FileSystemTestFolder(self)
        let envelopes = [
            ("plain.suit", SUITTestEnvelope.make(sequence: 1)),
            ("resources.suit", SUITTestEnvelope.make(sequence: 2, uris: ["file://app.bin", "file://rad.bin"])),
            ("damaged.suit", SUITTestEnvelope.make(sequence: 3, damaged: true)),
        ]
        let paths = try envelopes.map { name, envelope in try folder.write(name, envelope.bytes) }
        let report = try check(paths)
        XCTAssertEqual(report.files.count, 3)
        for (name, verdict) in report.files {
            XCTAssertTrue(verdict.valid, "\(name): \(verdict.error ?? "")")
        }
    }

    /// The checker can fail: a text sequence number, a missing common section, manifest version 2,
    /// the install sequence under the key of drafts before -28 and a text digest algorithm are all
    /// reported invalid, and a good envelope valid.
    func testTheCheckerFindsBrokenEnvelopes() throws {
        try ExternalTool.requirePythonModules(["cbor2", "pycddl"])
        let run = try ProcessRunner.run(ExternalTool.python, [ExternalTool.script("suit/check_envelope_cddl.py"), "--self-test"], timeout: 120)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    }
}
