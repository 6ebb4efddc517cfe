@testable import smpctl
import XCTest

/// Text from devices and files, made safe: file names from device names (``DeviceFileName``) and
/// control characters made visible (``TerminalText``).
final class DeviceTextTests: XCTestCase {
    func testADeviceNameBecomesOneFileNameThatNamesNoFolder() {
        let cases: [(String, String)] = [
            ("bay-01", "bay-01"), ("udp:127.0.0.1:14000", "udp:127.0.0.1:14000"), ("a/b", "a%2Fb"), ("a_b", "a_b"),
            (".", "%2E"), ("..", "%2E."), (".hidden", "%2Ehidden"), ("a.b", "a.b"), ("50%", "50%25"), ("%2F", "%252F"),
            ("\u{1B}[2J", "%1B[2J"), ("tab\there", "tab%09here"), ("\u{9B}x", "%C2%9Bx"), ("Zephyr ü", "Zephyr ü"), ("", "%"),
        ]
        for (name, expected) in cases {
            XCTAssertEqual(DeviceFileName.component(name), expected, name.debugDescription)
        }
        XCTAssertEqual(DeviceFileName.expand("logs/{name}-{name}.txt", name: "../x"), "logs/%2E.%2Fx-%2E.%2Fx.txt")
    }

    /// Different names never give one file name: the escape is reversible.
    func testDifferentNamesGiveDifferentFileNames() {
        let names = ["a/b", "a%2Fb", "a_b", "a%b", ".", "..", "%2E", "%2E.", "", "%", "x\n", "x%0A", ".x", "%2Ex"]
        let components = names.map(DeviceFileName.component)
        XCTAssertEqual(Set(components).count, names.count, "\(components)")
        XCTAssertTrue(components.allSatisfy { !$0.contains("/") && $0 != "." && $0 != ".." && !$0.hasPrefix(".") })
    }

    func testControlCharactersAreMadeVisible() {
        XCTAssertEqual(TerminalText.visible("plain text\nnext\tline"), "plain text\nnext\tline")
        XCTAssertEqual(TerminalText.visible("\u{1B}]0;title\u{07}x\r\u{7F}\u{9B}"), "\\e]0;title\\x07x\\r\\x7F\\u{9b}")
        XCTAssertEqual(TerminalText.visibleLine("a\nb\tc"), "a\\nb\\tc")
        XCTAssertEqual(TerminalText.visible("ü ✓"), "ü ✓")
    }

    func testDumbTerminalsAndNoColour() {
        XCTAssertFalse(TerminalText.allowsColour(environment: ["NO_COLOR": "1"]))
        XCTAssertTrue(TerminalText.allowsColour(environment: ["NO_COLOR": ""]))
        XCTAssertFalse(TerminalText.allowsColour(environment: ["TERM": "dumb"]))
        XCTAssertTrue(TerminalText.allowsColour(environment: ["TERM": "xterm-256color"]))
        // A pipe is no terminal, whatever TERM says.
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer { close(ends[0]); close(ends[1]) }
        XCTAssertFalse(TerminalText.allowsCursorMovement(on: ends[1], environment: ["TERM": "xterm"]))
    }
}
