import Foundation
import SMPTestSupport
import XCTest

/// The live view of a many-device run in a real terminal (tmux, 80×24): one line per device,
/// redrawn in place, then the summary.
final class FleetTerminalTests: XCTestCase {
    func testTheLiveViewIsRedrawnInPlaceAndEndsWithTheSummary() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let smpctl = try SMPCtl.executable()
        // Three devices whose flash takes about a second for the image, silent 1 s after their reset.
        let (_, endpoint) = try await startSimulateProcess(["--json", "--count", "3", "--erase-speed", "80", "--write-speed", "40", "--boot-time", "1000"])
        let port = try XCTUnwrap(Int(endpoint.split(separator: ":").last ?? ""))
        let window = try TmuxWindow(
            width: 80, height: 24,
            command: "SMPCTL_CONNECTION= '\(smpctl)' upgrade '\(app.path)' -c udp:127.0.0.1:\(port)-\(port + 2); echo EXIT=$?; sleep 60")
        addTeardownBlock { window.stop() }
        var sawBar = false
        var final: [String]?
        let deadline = Date().addingTimeInterval(30)
        while final == nil && Date() < deadline {
            let screen = try window.screen()
            for line in screen {
                XCTAssertLessThan(line.count, 80, "a line wrapped:\n\(screen.joined(separator: "\n"))")
                if line.contains(#/^127\.0\.0\.1:\d+ +upload +\[[#-]+\] +\d+%/#) { sawBar = true }
            }
            if screen.contains(where: { $0.hasPrefix("EXIT=") }) { final = screen }
            try await Task.sleep(for: .milliseconds(40))
        }
        let screen = try XCTUnwrap(final, "no end:\n\((try? window.screen().joined(separator: "\n")) ?? "")")
        let text = screen.joined(separator: "\n")
        XCTAssertTrue(screen.contains("EXIT=0"), text)
        XCTAssertTrue(sawBar, "no device line with a bar was seen")
        // Redrawn in place: the counts line is on the screen once, in its final state.
        XCTAssertEqual(screen.filter { $0.hasPrefix("upgrade: 3 devices") }.count, 1, text)
        XCTAssertTrue(screen.contains { $0.hasPrefix("upgrade: 3 devices, 3 succeeded") }, text)
        XCTAssertEqual(screen.filter { $0.contains("succeeded in") }.count, 3, text)
        XCTAssertTrue(screen.contains { $0.hasPrefix("DEVICE") && $0.contains("BEFORE") && $0.contains("AFTER") }, text)
        XCTAssertTrue(screen.contains { $0.hasPrefix("3 devices in") && $0.hasSuffix("3 succeeded") }, text)
    }
}
