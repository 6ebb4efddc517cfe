import SMP
import XCTest

/// ``ShellOutput/plainText(_:)``: console output as Zephyr's shell captures it, made plain.
final class ShellOutputPlainTextTests: XCTestCase {
    func testZephyrOutputAsTheFixturesSendIt() {
        // Answers of the native_sim UDP fixture (Zephyr 4.4) to `kernel version` and `nosuch`.
        XCTAssertEqual(ShellOutput.plainText("\r\nZephyr version 4.4.0\r\n"), "Zephyr version 4.4.0\n")
        XCTAssertEqual(ShellOutput.plainText("\r\n\u{1B}[1;31mnosuch: command not found\r\n\u{1B}[m"), "nosuch: command not found\n")
        XCTAssertEqual(
            ShellOutput(output: "\r\ndevices:\r\n- uart (READY)\r\n", returnCode: 0).plainOutput, "devices:\n- uart (READY)\n")
    }

    func testEscapeSequencesAndLineEnds() {
        XCTAssertEqual(ShellOutput.plainText("\u{1B}[1;33mwarn\u{1B}[0m ok"), "warn ok")
        XCTAssertEqual(ShellOutput.plainText("a\u{1B}[12D\u{1B}[Jb"), "ab", "cursor moves and erases")
        XCTAssertEqual(ShellOutput.plainText("\u{1B}]0;title\u{07}x\u{1B}]2;t\u{1B}\\y"), "xy", "OSC ended by BEL or ST")
        XCTAssertEqual(ShellOutput.plainText("\u{1B}7saved\u{1B}8"), "saved", "two-byte sequences")
        XCTAssertEqual(ShellOutput.plainText("cut \u{1B}[1;3"), "cut ", "a sequence cut by the output buffer")
        XCTAssertEqual(ShellOutput.plainText("a\rb\r\n"), "a\rb\n", "a lone CR stays")
        XCTAssertEqual(ShellOutput.plainText("\n\nx"), "\nx", "only one leading line end goes")
        XCTAssertEqual(ShellOutput.plainText("plain\n"), "plain\n")
        XCTAssertEqual(ShellOutput.plainText(""), "")
        XCTAssertEqual(ShellOutput.plainText("\r\nÄ\u{1B}[mö\r\n"), "Äö\n", "UTF-8 kept")
    }

    func testTerminalFormKeepsTheColours() {
        let output = ShellOutput(output: "\r\n\u{1B}[1;31mnosuch: command not found\r\n\u{1B}[m", returnCode: -8)
        XCTAssertEqual(output.terminalOutput, "\u{1B}[1;31mnosuch: command not found\n\u{1B}[m")
        XCTAssertEqual(ShellOutput.plainText("a\u{1B}[12Db\r\n", keepingEscapeSequences: true), "a\u{1B}[12Db\n")
    }
}
