import SMPTestSupport
import XCTest
@testable import smpctl

/// The "run this to continue" command lines survive a POSIX shell.
final class ShellQuotingTests: XCTestCase {
    func testPlainWordsStayAsTheyAre() {
        XCTAssertEqual(
            ShellQuoting.commandLine(["smpctl", "fs", "put", "/tmp/a.bin", "/lfs1/a.bin", "-c", "udp:[fe80::1%eth0]:1337"]),
            "smpctl fs put /tmp/a.bin /lfs1/a.bin -c 'udp:[fe80::1%eth0]:1337'")
        XCTAssertEqual(ShellQuoting.quoted("serial:/dev/ttyACM0"), "serial:/dev/ttyACM0")
    }

    func testWordsTheShellWouldSplitOrExpandAreQuoted() {
        XCTAssertEqual(ShellQuoting.quoted("/tmp/my file.bin"), "'/tmp/my file.bin'")
        XCTAssertEqual(ShellQuoting.quoted("ble:name=Zephyr?pair=1&mtu=247"), "'ble:name=Zephyr?pair=1&mtu=247'")
        XCTAssertEqual(ShellQuoting.quoted("it's"), "'it'\\''s'")
        XCTAssertEqual(ShellQuoting.quoted(""), "''")
        XCTAssertEqual(ShellQuoting.quoted("$HOME"), "'$HOME'")
    }

    /// The quoted line, run through a real shell, gives back the words.
    func testAShellGivesBackTheWords() throws {
        let words = ["a b", "it's", "ble:name=X?pair=1&mtu=2", "$HOME", "*", "ü"]
        let result = try ProcessRunner.run("/bin/sh", ["-c", "printf '%s\\n' " + ShellQuoting.commandLine(words)])
        XCTAssertEqual(result.stdout, words.map { $0 + "\n" }.joined())
    }
}
