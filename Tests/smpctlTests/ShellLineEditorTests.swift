import XCTest
@testable import smpctl

/// The line editor as a pure unit: key bytes in, line, cursor, screen writes and events out.
final class ShellLineEditorTests: XCTestCase {
    private let prompt = "> "

    private func keys(_ text: String, into editor: inout LineEditor) -> (screen: String, events: [LineEditor.Event]) {
        let (screen, events) = editor.feed(Array(text.utf8))
        return (String(decoding: screen, as: UTF8.self), events)
    }

    func testTypingRedrawsTheLine() {
        var editor = LineEditor(prompt: prompt)
        XCTAssertEqual(editor.start, Array("> ".utf8))
        let (screen, events) = keys("ab", into: &editor)
        XCTAssertEqual(screen, "\r> a\u{1B}[K\r> ab\u{1B}[K")
        XCTAssertEqual(events, [])
        XCTAssertEqual(editor.line, "ab")
        XCTAssertEqual(editor.cursor, 2)
    }

    func testCursorMovesAndInsertsInTheMiddle() {
        var editor = LineEditor(prompt: prompt)
        _ = keys("held", into: &editor)
        let (left, _) = keys("\u{1B}[D", into: &editor)
        XCTAssertEqual(left, "\u{1B}[1D")
        XCTAssertEqual(editor.cursor, 3)
        let (insert, _) = keys("l", into: &editor)
        XCTAssertEqual(insert, "\r> helld\u{1B}[K\u{1B}[1D", "redraw, then the cursor back before the d")
        _ = keys("\u{01}", into: &editor)
        XCTAssertEqual(editor.cursor, 0)
        _ = keys("\u{06}\u{06}", into: &editor)
        XCTAssertEqual(editor.cursor, 2)
        _ = keys("\u{02}", into: &editor)
        XCTAssertEqual(editor.cursor, 1)
        _ = keys("\u{05}", into: &editor)
        XCTAssertEqual(editor.cursor, 5)
        _ = keys("\u{1B}[H", into: &editor)
        XCTAssertEqual(editor.cursor, 0)
        _ = keys("\u{1B}[F", into: &editor)
        XCTAssertEqual(editor.cursor, 5)
        _ = keys("\u{1B}[1~", into: &editor)
        XCTAssertEqual(editor.cursor, 0)
        _ = keys("\u{1B}OF", into: &editor)
        XCTAssertEqual(editor.cursor, 5)
        let (stuck, _) = keys("\u{1B}[C", into: &editor)
        XCTAssertEqual(stuck, "", "nothing to the right of the end")
    }

    func testDeletingKeys() {
        var editor = LineEditor(prompt: prompt)
        _ = keys("echo one two", into: &editor)
        _ = keys("\u{7F}", into: &editor)
        XCTAssertEqual(editor.line, "echo one tw")
        _ = keys("\u{17}", into: &editor)
        XCTAssertEqual(editor.line, "echo one ")
        _ = keys("\u{01}\u{1B}[3~", into: &editor)
        XCTAssertEqual(editor.line, "cho one ")
        _ = keys("\u{04}", into: &editor)
        XCTAssertEqual(editor.line, "ho one ", "Ctrl-D deletes right on a non-empty line")
        _ = keys("\u{06}\u{06}\u{0B}", into: &editor)
        XCTAssertEqual(editor.line, "ho")
        _ = keys("\u{15}", into: &editor)
        XCTAssertEqual(editor.line, "")
        XCTAssertEqual(editor.cursor, 0)
    }

    func testEnterCtrlCCtrlDAndCtrlL() {
        var editor = LineEditor(prompt: prompt)
        let (screen, events) = keys("ls\r", into: &editor)
        XCTAssertTrue(screen.hasSuffix("\r\n"))
        XCTAssertEqual(events, [.submit("ls")])
        XCTAssertEqual(editor.line, "")
        let (cancel, none) = keys("junk\u{03}", into: &editor)
        XCTAssertTrue(cancel.hasSuffix("^C\r\n> "), cancel)
        XCTAssertEqual(none, [])
        XCTAssertEqual(editor.line, "")
        let (clear, _) = keys("x\u{0C}", into: &editor)
        XCTAssertTrue(clear.hasSuffix("\u{1B}[H\u{1B}[2J\r> x\u{1B}[K"), clear)
        _ = keys("\u{15}", into: &editor)
        XCTAssertEqual(keys("\u{04}", into: &editor).events, [.endOfInput])
    }

    func testHistoryUpAndDownKeepsTheDraft() {
        var editor = LineEditor(prompt: prompt, history: LineHistory(entries: ["first", "second"]))
        _ = keys("dra", into: &editor)
        let (up, _) = keys("\u{1B}[A", into: &editor)
        XCTAssertEqual(up, "\r> second\u{1B}[K")
        _ = keys("\u{1B}[A\u{1B}[A", into: &editor)
        XCTAssertEqual(editor.line, "first", "stops at the oldest")
        _ = keys("\u{1B}[B", into: &editor)
        XCTAssertEqual(editor.line, "second")
        _ = keys("\u{1B}[B", into: &editor)
        XCTAssertEqual(editor.line, "dra", "the draft comes back")
        _ = keys("\u{1B}OA\r", into: &editor)
        XCTAssertEqual(editor.history.entries, ["first", "second"], "a repeat of the newest entry is not added")
        _ = keys("third\r   \r", into: &editor)
        XCTAssertEqual(editor.history.entries, ["first", "second", "third"], "blank lines are not added")
    }

    func testHistoryIsBounded() {
        var history = LineHistory(entries: ["a", "b", "c"], limit: 2)
        XCTAssertEqual(history.entries, ["b", "c"])
        history.add("d")
        XCTAssertEqual(history.entries, ["c", "d"])
    }

    func testUTF8AndUnknownSequences() {
        var editor = LineEditor(prompt: prompt)
        _ = keys("é€\u{1B}[99~\u{1B}[1;5C!", into: &editor)
        XCTAssertEqual(editor.line, "é€!")
        XCTAssertEqual(editor.cursor, 3)
    }

    func testHistoryFileLocation() {
        XCTAssertEqual(ShellHistoryFile.standard(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])?.path, "/s/smpctl/shell_history")
        XCTAssertEqual(ShellHistoryFile.standard(environment: ["HOME": "/h"])?.path, "/h/.local/state/smpctl/shell_history")
        XCTAssertNil(ShellHistoryFile.standard(environment: [:]))
    }

    func testExitStatusOfReturnCodes() {
        XCTAssertEqual(ShellResultRendering.exitStatus(0), 0)
        XCTAssertEqual(ShellResultRendering.exitStatus(-8), 248)
        XCTAssertEqual(ShellResultRendering.exitStatus(3), 3)
        XCTAssertEqual(ShellResultRendering.exitStatus(256), 1)
    }
}
