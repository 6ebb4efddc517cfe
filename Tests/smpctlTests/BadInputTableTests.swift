import Foundation
import SMPTestSupport
import XCTest

/// The bad-input table, docs/bad-inputs.md: more than 150 bad inputs and faults (connection
/// strings, numbers, ports, files, device errors, link faults, JSON payloads, standard streams),
/// each run through the real `smpctl`. Every case must end without a crash or hang, with an exit
/// status of its documented class and an `error:` line; the document is what the run found
/// (`SMPCTL_REGENERATE_DOCS=1` rewrites it, otherwise a difference fails the test).
final class BadInputTableTests: XCTestCase {
    /// Cases run at once (each is a process, some with a device).
    private static let parallelCases = 4

    func testBadInputsEndCleanlyAndTheTableIsCurrent() async throws {
        let executable = try SMPCtl.executable()
        let codes = try DocumentedExitCodes()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-bad-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        try BadInputFiles.make(in: folder)

        let cases = BadInputArgumentCases.all + BadInputLocalCases.all + BadInputDeviceCases.all
        XCTAssertGreaterThanOrEqual(cases.count, 150, "the table must hold at least 150 cases")
        for category in BadInputCase.Category.allCases {
            XCTAssertFalse(cases.filter { $0.category == category }.isEmpty, "no case for \(category.rawValue)")
        }
        let rows = try await run(cases, executable: executable, folder: folder, codes: codes)

        for row in rows {
            let context = "#\(row.number) \(row.badInput.category.rawValue): \(row.badInput.title)\n\(row.badInput.commandLine)\n"
                + "→ \(row.outcome.summary)\n--- stderr:\n\(row.outcome.stderr.prefix(2000))"
            for violation in row.violations { XCTFail("\(violation)\n\(context)") }
        }
        try compareOrRegenerate(BadInputTable.document(rows, codes: codes))
    }

    /// Runs the cases a few at a time, each against a fresh device when it needs one.
    private func run(_ cases: [BadInputCase], executable: String, folder: String, codes: DocumentedExitCodes) async throws -> [BadInputRow] {
        try await withThrowingTaskGroup(of: BadInputRow.self) { group in
            var rows: [BadInputRow] = []
            var next = 0
            func startNext() {
                guard next < cases.count else { return }
                let (number, badInput) = (next + 1, cases[next])
                next += 1
                group.addTask {
                    var device: BadInputDeviceHandle?
                    if let kind = badInput.device { device = try await BadInputDevices.start(kind, folder: folder) }
                    let outcome = try await BadInputRunner.run(
                        badInput, executable: executable, folder: folder, endpoint: device?.endpoint, whileRunning: device?.whileRunning)
                    await device?.stop()
                    return BadInputTable.row(number: number, badInput, outcome, folder: folder, endpoint: device?.endpoint, codes: codes)
                }
            }
            for _ in 0..<Self.parallelCases { startNext() }
            while let row = try await group.next() {
                rows.append(row)
                startNext()
            }
            return rows.sorted { $0.number < $1.number }
        }
    }

    /// Writes docs/bad-inputs.md with `SMPCTL_REGENERATE_DOCS=1`; otherwise fails when it differs.
    private func compareOrRegenerate(_ document: String) throws {
        let url = ExternalTool.packageRoot.appendingPathComponent(BadInputTable.documentPath)
        if ProcessInfo.processInfo.environment["SMPCTL_REGENERATE_DOCS"] == "1" {
            try Data(document.utf8).write(to: url)
            print("wrote \(url.path)")
            return
        }
        let committed = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        guard committed != document else { return }
        let old = committed.split(separator: "\n", omittingEmptySubsequences: false)
        let new = document.split(separator: "\n", omittingEmptySubsequences: false)
        let differences = zip(old, new).enumerated().filter { $0.element.0 != $0.element.1 }.prefix(5)
            .map { "line \($0.offset + 1):\n  committed: \($0.element.0)\n  found:     \($0.element.1)" }
        XCTFail("""
            \(BadInputTable.documentPath) differs from what the cases do now (\(old.count) vs \(new.count) lines); \
            if the change is right, regenerate it: \(BadInputTable.regenerateCommand)
            \(differences.joined(separator: "\n"))
            """)
    }
}
