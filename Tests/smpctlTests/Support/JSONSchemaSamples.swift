import Foundation
import SMPTestSupport
import XCTest

/// The `--json` output of real smpctl runs, each with the docs/schema/v1 definition it must match,
/// checked in one go by `Tests/Scripts/schema/validate_json_output.py` (Python `jsonschema`).
final class JSONSchemaSamples: @unchecked Sendable {
    /// One run's standard output (one document, or JSON lines for a stream) and its definition.
    struct Sample: Encodable {
        var label: String
        var definition: String
        var text: String
    }

    /// The schema every document is checked against.
    static let schemaPath = ExternalTool.packageRoot.appendingPathComponent("docs/schema/v1/smpctl.schema.json").path

    private(set) var samples: [Sample] = []

    /// Runs smpctl and keeps its standard output for `definition`; asserts the exit status
    /// (0 unless the definition is `error`, whose exit status is its `code`).
    @discardableResult
    func run(
        _ arguments: [String], as definition: String, exit status: Int32? = nil, input: String? = nil,
        environment: [String: String] = [:], timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> SMPCtlRun {
        let run = try await SMPCtl.run(arguments, input: input, environment: environment, timeout: timeout, file: file, line: line)
        if let status {
            assertExit(run, status, file: file, line: line)
        } else if definition != "error" {
            assertExit(run, 0, file: file, line: line)
        } else {
            XCTAssertNotEqual(run.status, 0, "an error document needs a failure\n\(run)", file: file, line: line)
        }
        XCTAssertFalse(run.stdout.isEmpty, "no JSON on standard output\n\(run)", file: file, line: line)
        add(run.stdout, as: definition, label: "smpctl " + arguments.joined(separator: " "))
        return run
    }

    /// Keeps a text (one document, or JSON lines) for `definition`.
    func add(_ text: String, as definition: String, label: String) {
        samples.append(Sample(label: label, definition: definition, text: text))
    }

    /// The validator's verdict: exit 0 and no output when every document matches and every
    /// command definition was sampled (`requireEveryCommand`), else one line per problem.
    func validate(requireEveryCommand: Bool) throws -> ProcessRunner.Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("samples.json").path
        try JSONEncoder().encode(samples).write(to: URL(fileURLWithPath: path))
        if let keep = ProcessInfo.processInfo.environment["SMPCTL_KEEP_JSON_SAMPLES"], !keep.isEmpty {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: path, toPath: keep)
        }
        var arguments = [ExternalTool.script("schema/validate_json_output.py"), Self.schemaPath, path]
        if requireEveryCommand { arguments.append("--require-every-command") }
        return try ProcessRunner.run(ExternalTool.python, arguments, timeout: 120)
    }
}
