import Foundation
import SMP
import SMPSimulator
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `smpctl shell`, `smpctl zephyr erase-storage` and `smpctl image erase` on a real pseudo-terminal: line editing keys,
/// history (also across sessions), raw mode on and off, the confirmation question.
final class ShellTerminalTests: XCTestCase {
    private let up = "\u{1B}[A", left = "\u{1B}[D"

    private func startTerminal(_ arguments: [String], stateHome: String) throws -> TerminalProcess {
        let terminal = try TerminalProcess(smpctl: arguments, environment: ["XDG_STATE_HOME": stateHome])
        addTeardownBlock { terminal.stop() }
        return terminal
    }

    private func temporaryDirectory() throws -> String {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("smpctl-shell-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func executed(_ served: ServedDevice) async -> [[String]] {
        (await served.device.group(.shell) as? ShellGroup)?.executed ?? []
    }

    func testEditingKeysHistoryAndRawMode() async throws {
        let served = try await startDevice()
        let state = try temporaryDirectory()
        let terminal = try startTerminal(["shell", "-c", served.endpoint], stateHome: state)
        let prompt = "uart:~$ "
        let ready = await terminal.waitForScreen(prompt)
        XCTAssertTrue(ready, "no prompt: \(terminal.screen)")
        XCTAssertEqual(terminal.localModes & tcflag_t(ICANON | ECHO), 0, "raw mode while editing")

        // Left arrow and insertion in the middle.
        terminal.type("echo wrld" + left + left + left + "o\r")
        let first = await terminal.waitForScreen("world\r\n")
        XCTAssertTrue(first, terminal.screen)
        // Up recalls it; Ctrl-W cuts the last word; Ctrl-A/Ctrl-E move.
        terminal.type(up + "\u{17}again\u{01}\u{05}\r")
        let second = await terminal.waitForScreen("again\r\n")
        XCTAssertTrue(second, terminal.screen)
        // Ctrl-U drops typed text; quotes group words.
        terminal.type("garbage\u{15}echo 'a b'\r")
        let third = await terminal.waitForScreen("a b\r\n")
        XCTAssertTrue(third, terminal.screen)
        // Ctrl-C abandons a line; an unterminated quote is an error, nothing is sent.
        terminal.type("echo never\u{03}")
        _ = await terminal.waitForScreen("^C")
        terminal.type("echo 'open\r")
        let error = await terminal.waitForScreen("unterminated ' quote")
        XCTAssertTrue(error, terminal.screen)
        // Ctrl-D on an empty line ends the session; the terminal is restored.
        terminal.type("\u{04}")
        let status = await terminal.waitForExit()
        XCTAssertEqual(status, 0, terminal.screen)
        XCTAssertEqual(terminal.localModes & tcflag_t(ICANON | ECHO), tcflag_t(ICANON | ECHO), "terminal restored")
        let argv = await executed(served)
        XCTAssertEqual(argv, [["echo", "world"], ["echo", "again"], ["echo", "a b"]])

        let historyPath = state + "/smpctl/shell_history"
        let history = try String(contentsOfFile: historyPath, encoding: .utf8)
        XCTAssertEqual(history, "echo world\necho again\necho 'a b'\necho 'open\n")

        // A new session starts with the saved history.
        let again = try startTerminal(["shell", "-c", served.endpoint], stateHome: state)
        _ = await again.waitForScreen(prompt)
        again.type(up + up + "\r\u{04}")
        let secondStatus = await again.waitForExit()
        XCTAssertEqual(secondStatus, 0, again.screen)
        let all = await executed(served)
        XCTAssertEqual(all.last, ["echo", "a b"])
    }

    func testTerminalIsRestoredWhenKilled() async throws {
        let served = try await startDevice()
        let terminal = try startTerminal(["shell", "-c", served.endpoint], stateHome: try temporaryDirectory())
        let ready = await terminal.waitForScreen("uart:~$ ")
        XCTAssertTrue(ready, terminal.screen)
        XCTAssertEqual(terminal.localModes & tcflag_t(ICANON), 0)
        terminal.type("echo half")
        _ = await terminal.waitForScreen("echo half")
        let pid = try XCTUnwrap(terminal.processIdentifier)
        kill(pid, SIGTERM)
        let status = await terminal.waitForExit()
        XCTAssertEqual(status, 128 + SIGTERM)
        XCTAssertEqual(terminal.localModes & tcflag_t(ICANON | ECHO), tcflag_t(ICANON | ECHO), "terminal restored")
    }

    func testEraseStorageAsksOnATerminal() async throws {
        let served = try await startDevice()
        let state = try temporaryDirectory()
        let declined = try startTerminal(["zephyr", "erase-storage", "-c", served.endpoint], stateHome: state)
        let asked = await declined.waitForScreen("[y/N]")
        XCTAssertTrue(asked, declined.screen)
        declined.type("n\n")
        let declinedStatus = await declined.waitForExit()
        XCTAssertEqual(declinedStatus, 130, declined.screen)
        XCTAssertTrue(declined.screen.contains("cancelled: did not erase the storage partition"), declined.screen)
        let requests = await served.requests
        XCTAssertEqual(requests, 0)

        let accepted = try startTerminal(["zephyr", "erase-storage", "-c", served.endpoint], stateHome: state)
        _ = await accepted.waitForScreen("[y/N]")
        accepted.type("y\n")
        let acceptedStatus = await accepted.waitForExit()
        XCTAssertEqual(acceptedStatus, 0, accepted.screen)
        let group = await served.device.group(.settings)
        let settings = try XCTUnwrap(group as? SettingsGroup)
        XCTAssertEqual(settings.storage.eraseCount, 1)
    }

    func testExecOnATerminalKeepsTheColours() async throws {
        let served = try await startDevice()
        let terminal = try startTerminal(["shell", "exec", "-c", served.endpoint, "--", "frobnicate"], stateHome: try temporaryDirectory())
        // The device's CR LF is printed as LF, which the terminal (ONLCR) shows as CR LF.
        let shown = await terminal.waitForScreen("\u{1B}[1;31mfrobnicate: command not found\r\n\u{1B}[m\r\n")
        XCTAssertTrue(shown, terminal.screen)
        let status = await terminal.waitForExit()
        XCTAssertEqual(status, 248, terminal.screen)
        XCTAssertFalse(terminal.screen.contains("\r\r\n"), terminal.screen)
    }

    func testImageEraseAsksNamingTheSlotAndVersion() async throws {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.images = SimulatedImageConfiguration(slotSize: 16 * 1024)
        let served = try await startDevice(configuration)
        let state = try temporaryDirectory()
        let declined = try startTerminal(["image", "erase", "--slot", "0", "-c", served.endpoint], stateHome: state)
        let asked = await declined.waitForScreen("Erase slot 0 of image 0 (version 1.0.0, hash a0a0a0a0, RUNNING)? [y/N]")
        XCTAssertTrue(asked, declined.screen)
        declined.type("\n")
        let declinedStatus = await declined.waitForExit()
        XCTAssertEqual(declinedStatus, 130, declined.screen)
        XCTAssertTrue(declined.screen.contains("cancelled: did not erase the slot"), declined.screen)
        let requests = await served.requests
        XCTAssertEqual(requests, 1, "only the image list was read")

        let accepted = try startTerminal(["image", "erase", "-c", served.endpoint], stateHome: state)
        let askedEmpty = await accepted.waitForScreen("Erase slot 1 of image 0 (listed as empty)? [y/N]")
        XCTAssertTrue(askedEmpty, accepted.screen)
        accepted.type("y\n")
        let acceptedStatus = await accepted.waitForExit()
        XCTAssertEqual(acceptedStatus, 0, accepted.screen)
        XCTAssertTrue(accepted.screen.contains("erased the slot opposite the running image"), accepted.screen)
    }

    func testCrashAsksOnATerminalLikeEraseStorage() async throws {
        let served = try await startDevice(.mynewtForTests)
        let declined = try startTerminal(["crash", "test", "div0", "-c", served.endpoint], stateHome: try temporaryDirectory())
        let asked = await declined.waitForScreen("It will reset. [y/N]")
        XCTAssertTrue(asked, declined.screen)
        declined.type("no\n")
        let status = await declined.waitForExit()
        XCTAssertEqual(status, 130, declined.screen)
        XCTAssertTrue(declined.screen.contains("cancelled: did not crash the device"), declined.screen)
        let requests = await served.requests
        XCTAssertEqual(requests, 0)
    }
}
