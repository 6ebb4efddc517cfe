import Foundation
import XCTest

/// Runs a Python cross-check script of `Tests/Scripts` (e.g. against cbor2 or smp): a mode,
/// arguments, input lines through a file, and the lines of its output file back.
public final class CrossCheckScript {
    private let script: String
    private let directory: URL

    /// Prepares to run `Tests/Scripts/<relativePath>` with a scratch folder of its own.
    public init(_ relativePath: String) throws {
        script = ExternalTool.script(relativePath)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("crosscheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs the script as `SCRIPT MODE ARGUMENTS… [INPUT-FILE] OUTPUT-FILE`; returns the output
    /// lines (empty lines kept when `keepEmptyLines`, since an empty line can be a value).
    public func run(
        _ mode: String, _ arguments: [String], input: [String]? = nil, keepEmptyLines: Bool = false,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [String] {
        var files: [String] = []
        if let input {
            let inputURL = directory.appendingPathComponent("\(mode).in")
            try (input.joined(separator: "\n") + "\n").write(to: inputURL, atomically: true, encoding: .utf8)
            files.append(inputURL.path)
        }
        let outputURL = directory.appendingPathComponent("\(mode).out")
        files.append(outputURL.path)
        let result = try ProcessRunner.run(ExternalTool.python, [script, mode] + arguments + files, timeout: 300)
        guard result.status == 0 else {
            XCTFail("\(script) \(mode) exited with \(result.status): \(result.stderr)", file: file, line: line)
            return []
        }
        var lines = try String(contentsOf: outputURL, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: !keepEmptyLines).map(String.init)
        if keepEmptyLines && lines.last == "" { lines.removeLast() }
        return lines
    }
}
