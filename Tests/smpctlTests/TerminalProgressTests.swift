import Foundation
import SMPTestSupport
import XCTest

/// Progress in real terminals (tmux at 40, 80 and 200 columns) and when standard error is a pipe:
/// `upgrade` against `smpctl simulate`, slowed so that the bar and the spinner are seen.
final class TerminalProgressTests: XCTestCase {
    /// A bar: `[####-----]  45%`.
    private let barLine = /\[[#-]{10,}\]\s+\d{1,3}%/
    /// A spinner: `| 1.2s` under a step's line, `| waiting for the device to take the first chunk  1.2s`.
    private let spinnerLine = /^[|\/\\-] (.*  )?\d+\.\ds$/

    func testTheBarAndTheSpinnerFitTerminalsOf40And80And200Columns() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let smpctl = try SMPCtl.executable()
        var windows: [TmuxWindow] = []
        for width in [40, 80, 200] {
            // Flash erases and writes at 80 and 40 KiB/s (the ~40 KB image takes a second), and the device is silent 1.5 s after its reset.
            let (_, endpoint) = try await startSimulateProcess(["--erase-speed", "80", "--write-speed", "40", "--boot-time", "1500"])
            let window = try TmuxWindow(
                width: width, height: 60,
                command: "SMPCTL_CONNECTION= '\(smpctl)' upgrade '\(app.path)' -c \(endpoint); echo EXIT=$?; sleep 60")
            addTeardownBlock { window.stop() }
            XCTAssertEqual(try window.reportedWidth(), width)
            windows.append(window)
        }
        var seen = Array(repeating: (bar: false, spinner: false), count: windows.count)
        var finals: [[String]?] = Array(repeating: nil, count: windows.count)
        let deadline = Date().addingTimeInterval(25)
        while finals.contains(where: { $0 == nil }) && Date() < deadline {
            for (index, window) in windows.enumerated() where finals[index] == nil {
                let screen = try window.screen()
                for line in screen where line.contains(barLine) || line.contains(spinnerLine) {
                    // Joined, a wrapped line would be longer than the terminal.
                    XCTAssertLessThan(line.count, window.width, "a line wrapped at \(window.width) columns:\n\(screen.joined(separator: "\n"))")
                    if line.contains(barLine) { seen[index].bar = true } else { seen[index].spinner = true }
                }
                if screen.contains(where: { $0.hasPrefix("EXIT=") }) { finals[index] = screen }
            }
            try await Task.sleep(for: .milliseconds(40))
        }
        for (index, window) in windows.enumerated() {
            let last = (try? window.screen().joined(separator: "\n")) ?? ""
            let screen = try XCTUnwrap(finals[index], "no end at \(window.width) columns:\n\(last)")
            let text = screen.joined(separator: "\n")
            XCTAssertTrue(screen.contains("EXIT=0"), text)
            XCTAssertTrue(seen[index].bar, "no bar at \(window.width) columns")
            XCTAssertTrue(seen[index].spinner, "no spinner at \(window.width) columns")
            // The final screen: one line per step, numbered 1 to N once each; the bar and the spinner wiped.
            XCTAssertFalse(screen.contains { $0.contains(barLine) || $0.contains(spinnerLine) || $0.contains("waiting for the device to take") }, text)
            XCTAssertTrue(screen.contains { $0.hasPrefix("upgraded with") }, text)
            let steps = screen.compactMap { $0.firstMatch(of: #/^\[(\d+)/(\d+)\] /#).map { "\($0.1)/\($0.2)" } }
            let count = try XCTUnwrap(steps.first.flatMap { Int($0.split(separator: "/")[1]) }, text)
            XCTAssertEqual(steps, (1...count).map { "\($0)/\(count)" }, text)
            XCTAssertGreaterThanOrEqual(count, 5, text)
        }
    }
}
