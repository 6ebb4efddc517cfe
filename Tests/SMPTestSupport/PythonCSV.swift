import Foundation

/// CSV read by Python's `csv` module (strict, its default dialect: RFC 4180's quoting), so that a
/// CSV report is checked with a reader we did not write rather than split on commas and line ends.
public enum PythonCSV {
    /// The records of the CSV file at `path`, each its fields; skips locally, fails in CI, when
    /// Python is missing; throws ``Rejected`` when Python's reader rejects the text.
    public static func rows(ofFile path: String) throws -> [[String]] {
        try rows(of: String(contentsOfFile: path, encoding: .utf8))
    }

    /// The records of CSV `text`, each its fields (as ``rows(ofFile:)``).
    public static func rows(of text: String) throws -> [[String]] {
        try ExternalTool.requirePythonModules(["csv", "json"])
        let result = try ProcessRunner.run(ExternalTool.python, ["-c", reader], input: text, timeout: 60)
        guard result.status == 0 else { throw Rejected(reason: result.stderr) }
        return try JSONDecoder().decode([[String]].self, from: Data(result.stdout.utf8))
    }

    /// Reads standard input untranslated (`newline=""`, as the csv module requires) and prints the
    /// records as a JSON array of arrays of strings.
    private static let reader = """
        import csv, json, sys
        sys.stdin.reconfigure(encoding="utf-8", newline="")
        print(json.dumps(list(csv.reader(sys.stdin, strict=True))))
        """

    /// Python's csv module rejected the text.
    public struct Rejected: Error, CustomStringConvertible {
        /// Python's message.
        public var reason: String

        public var description: String { "Python's csv reader rejected the text: \(reason)" }
    }
}
