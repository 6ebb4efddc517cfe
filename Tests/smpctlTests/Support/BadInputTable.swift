import Foundation
import SMPTestSupport

/// The exit codes docs/exit-codes.md documents: code → kind (`64` → `usage`).
struct DocumentedExitCodes {
    let kinds: [Int32: String]

    /// Reads the table of docs/exit-codes.md (`| 64 | \`usage\` | …`).
    init() throws {
        let path = ExternalTool.packageRoot.appendingPathComponent("docs/exit-codes.md").path
        var kinds: [Int32: String] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where line.hasPrefix("|") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, let code = Int32(cells[0]), cells[1].hasPrefix("`") else { continue }
            kinds[code] = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        }
        self.kinds = kinds
    }

    /// `64 usage`, or the bare number when undocumented.
    func label(_ code: Int32) -> String { kinds[code].map { "\(code) \($0)" } ?? "\(code)" }
}

/// One row of the table: a case and what it did.
struct BadInputRow: Sendable {
    var number: Int
    var badInput: BadInputCase
    var outcome: BadInputOutcome
    /// The first `error:` line of standard error, normalised.
    var message: String
    /// What is wrong with the outcome (empty when it is as it should be).
    var violations: [String]
}

/// Turns outcomes into rows (checking them) and rows into docs/bad-inputs.md.
enum BadInputTable {
    /// The generated document's path in the package.
    static let documentPath = "docs/bad-inputs.md"

    /// The command that rewrites the document.
    static let regenerateCommand =
        "SMPCTL_REGENERATE_DOCS=1 swift test --skip-build --disable-swift-testing --filter BadInputTableTests"

    /// Checks an outcome against the rules: no crash, no hang, an exit status the case allows, an
    /// `error:` line with a message when it failed, nothing lost afterwards.
    static func row(
        number: Int, _ badInput: BadInputCase, _ outcome: BadInputOutcome, folder: String, endpoint: String?, codes: DocumentedExitCodes
    ) -> BadInputRow {
        var violations: [String] = []
        if outcome.hung { violations.append("hang (no exit within \(Int(badInput.timeout)) s)") }
        if outcome.crashed { violations.append("crash (\(outcome.summary))") }
        if !outcome.hung && !outcome.crashed {
            let expected = badInput.expected
            if !expected.contains(outcome.status) {
                let allowed = expected.sorted().map(codes.label).joined(separator: " or ")
                violations.append("exit \(codes.label(outcome.status)), expected \(allowed)")
            }
            let throughDevice = badInput.passesDeviceStatusThrough
            if codes.kinds[outcome.status] == nil && !throughDevice { violations.append("exit \(outcome.status) is not in docs/exit-codes.md") }
            if outcome.status != 0 && outcome.stderrSeen && !throughDevice && errorLine(outcome.stderr) == nil {
                violations.append("no \"error: MESSAGE\" line on standard error")
            }
        }
        if let lost = outcome.afterwards { violations.append(lost) }
        let message = outcome.stderrSeen
            ? normalised(errorLine(outcome.stderr) ?? firstLine(outcome.stderr), badInput: badInput, folder: folder, endpoint: endpoint)
            : "(standard error not seen: \(badInput.streams == .fullStderr ? "/dev/full" : "closed or piped"))"
        return BadInputRow(number: number, badInput: badInput, outcome: outcome, message: message, violations: violations)
    }

    /// The first line starting with `error: ` that has a message after it.
    static func errorLine(_ stderr: String) -> String? {
        stderr.split(separator: "\n").map(String.init).first {
            $0.lowercased().hasPrefix("error: ") && !$0.dropFirst(7).trimmingCharacters(in: .whitespaces).isEmpty
        }
    }

    private static func firstLine(_ text: String) -> String {
        text.split(separator: "\n").first.map(String.init) ?? ""
    }

    /// The message with what changes from run to run replaced: the case folder, the device's
    /// address and ports, pseudo-terminal numbers, measured times.
    static func normalised(_ line: String, badInput: BadInputCase, folder: String, endpoint: String?) -> String {
        var text = line.replacingOccurrences(of: folder, with: "$TMP")
        if let endpoint, let device = badInput.device { text = text.replacingOccurrences(of: endpoint, with: "<\(device.label)>") }
        let patterns: [(String, String)] = [
            (#"127\.0\.0\.1:[0-9]+"#, "127.0.0.1:PORT"),
            (#"/dev/pts/[0-9]+"#, "/dev/pts/N"),
            (#"[0-9]+(\.[0-9]+)? ?ms\b"#, "N ms"),
            (#"[0-9]+\.[0-9]+ ?s\b"#, "N s"),
            (#"(pid|process) [0-9]+"#, "$1 N"),
        ]
        for (pattern, template) in patterns {
            text = text.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
        }
        if text.count > 220 { text = String(text.prefix(200)) + "…" }
        return text
    }

    /// The whole document.
    static func document(_ rows: [BadInputRow], codes: DocumentedExitCodes) -> String {
        var lines: [String] = [
            "# Bad inputs and faults",
            "",
            "Generated by `BadInputTableTests` (Tests/smpctlTests/BadInputTableTests.swift, cases in",
            "Tests/smpctlTests/Support/BadInputCases*.swift); do not edit by hand. Regenerate with",
            "",
            "```sh",
            "swift build --build-tests && \(regenerateCommand)",
            "```",
            "",
            "Each case runs the real `smpctl` (in parallel, a few at a time, each under a time limit) against the",
            "virtual device (in-process, with the fault or configuration named), a killed `smpctl simulate`, or no",
            "device. For every case the test asserts: no crash (no signal, no `Fatal error` or backtrace), no hang,",
            "an exit status in the documented class ([exit-codes.md](exit-codes.md)) for that input, and, when the",
            "exit status is not 0 and standard error can be read, an `error: MESSAGE` line (shown below, with",
            "temporary paths as `$TMP`, ports as `PORT` and measured times as `N`). Where the outcome depends on",
            "timing (a fraction of responses lost, a device killed mid-command) the row shows the statuses allowed. Without",
            "`SMPCTL_REGENERATE_DOCS=1` it fails when this file differs from what it finds.",
            "",
        ]
        // A row whose outcome may vary is counted under "varies" unless it misbehaved.
        func varies(_ row: BadInputRow) -> Bool { row.badInput.outcomeVaries && row.violations.isEmpty }
        func settled(_ row: BadInputRow) -> Bool { !row.outcome.hung && !row.outcome.crashed && !varies(row) }
        let statuses = Set(rows.filter(settled).map(\.outcome.status)).sorted()
        lines.append("\(rows.count) cases: \(rows.filter { $0.violations.isEmpty }.count) as they should be.")
        lines.append("")
        lines.append("## Counts by category and exit status")
        lines.append("")
        lines.append("| category | cases | " + statuses.map { codes.label($0) }.joined(separator: " | ") + " | varies | crash | hang |")
        lines.append("|---|---:|" + String(repeating: "---:|", count: statuses.count + 3))
        for category in BadInputCase.Category.allCases {
            let inCategory = rows.filter { $0.badInput.category == category }
            var cells = [category.rawValue, "\(inCategory.count)"]
            for status in statuses {
                cells.append(count(inCategory.filter { settled($0) && $0.outcome.status == status }.count))
            }
            cells.append(count(inCategory.filter(varies).count))
            cells.append(count(inCategory.filter(\.outcome.crashed).count))
            cells.append(count(inCategory.filter(\.outcome.hung).count))
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        var totals = ["**all**", "**\(rows.count)**"]
        for status in statuses {
            totals.append(count(rows.filter { settled($0) && $0.outcome.status == status }.count))
        }
        totals += [count(rows.filter(varies).count), count(rows.filter(\.outcome.crashed).count), count(rows.filter(\.outcome.hung).count)]
        lines.append("| " + totals.joined(separator: " | ") + " |")
        for category in BadInputCase.Category.allCases {
            lines += ["", "## \(category.rawValue.prefix(1).uppercased() + category.rawValue.dropFirst())", ""]
            lines.append("| # | input | command | exit | first error line (else first line of stderr) |")
            lines.append("|---:|---|---|---|---|")
            for row in rows where row.badInput.category == category {
                var exit = row.outcome.hung || row.outcome.crashed ? row.outcome.summary : codes.label(row.outcome.status)
                var message = row.message
                if varies(row) {
                    exit = row.badInput.expected.sorted().map(codes.label).joined(separator: " or ")
                    message = "(depends on timing)"
                }
                lines.append("| \(row.number) | \(cell(row.badInput.title)) | `\(code(row.badInput.commandLine))` | \(exit) | \(cell(message)) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func count(_ value: Int) -> String { value == 0 ? "" : "\(value)" }

    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    private static func code(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "`", with: "'")
    }
}
