import Foundation
import XCTest

/// `smpctl stat … --watch` on a real pseudo-terminal: each draw replaces the last in place.
final class StatisticsWatchTerminalTests: XCTestCase {
    func testWatchRedrawsInPlaceOnATerminal() async throws {
        let served = try await startDevice()
        let terminal = try TerminalProcess(smpctl: ["stat", "show", "mgmt", "--watch", "0.2", "--count", "3", "-c", served.endpoint])
        addTeardownBlock { terminal.stop() }
        let status = await terminal.waitForExit()
        XCTAssertEqual(status, 0, terminal.screen)
        let screen = terminal.screen
        // Three tables, the second and third each preceded by "cursor up over the last table,
        // erase to the end of the screen" (ESC [ n A, ESC [ J), and no blank lines between them.
        let tables = screen.components(separatedBy: "GROUP").count - 1
        XCTAssertEqual(tables, 3, screen)
        let redraws = screen.matches(of: /\u{1B}\[(\d+)A\u{1B}\[J/)
        XCTAssertEqual(redraws.count, 2, screen)
        let first = try XCTUnwrap(redraws.first)
        let firstTable = screen[..<first.range.lowerBound]
        XCTAssertEqual(Int(first.output.1), firstTable.components(separatedBy: "\r\n").count - 1, "moves up over exactly the lines drawn:\n\(screen)")
        XCTAssertTrue(screen.contains("DELTA"), "later draws show deltas:\n\(screen)")
    }
}
