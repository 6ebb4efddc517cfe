import SMP
import XCTest

/// Splitting command lines like a POSIX shell.
final class ShellWordsTests: XCTestCase {
    func testBlanksSeparateWords() throws {
        XCTAssertEqual(try ShellWords.split("  kernel   uptime\t"), ["kernel", "uptime"])
        XCTAssertEqual(try ShellWords.split(""), [])
    }

    func testQuotesAndBackslashes() throws {
        XCTAssertEqual(try ShellWords.split(#"echo 'a b' "c d" e\ f"#), ["echo", "a b", "c d", "e f"])
        XCTAssertEqual(try ShellWords.split(#"echo "say \"hi\" \n" 'it''s'"#), ["echo", #"say "hi" \n"#, "its"])
        XCTAssertEqual(try ShellWords.split(#"echo '' "" x"#), ["echo", "", "", "x"])
        XCTAssertEqual(try ShellWords.split(#"a"b"'c'd"#), ["abcd"])
        XCTAssertEqual(try ShellWords.split(#"echo \'"#), ["echo", "'"])
    }

    func testUnterminatedQuotesAndTrailingBackslash() {
        XCTAssertThrowsError(try ShellWords.split("echo 'abc")) { error in
            XCTAssertEqual(error as? ShellWordsError, .unterminatedQuote("'", column: 6))
            XCTAssertTrue("\(error)".contains("unterminated ' quote"), "\(error)")
        }
        XCTAssertThrowsError(try ShellWords.split(#"echo "abc"#)) { error in
            XCTAssertEqual(error as? ShellWordsError, .unterminatedQuote("\"", column: 6))
        }
        XCTAssertThrowsError(try ShellWords.split(#"echo abc\"#)) { error in
            XCTAssertEqual(error as? ShellWordsError, .trailingBackslash)
        }
    }
}
