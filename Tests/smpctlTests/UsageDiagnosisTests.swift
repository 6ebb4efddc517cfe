import XCTest
@testable import smpctl

/// Usage errors name the real culprit, wherever the global options stand: a mistyped subcommand
/// or option with the closest valid name, a number out of range with the range (negative numbers
/// included), a renamed option with its new name; and the global options work before, between
/// and after the subcommand words of every device command.
final class UsageDiagnosisTests: XCTestCase {
    func testAMistypedSubcommandIsNamedWhereverTheGlobalOptionsStand() async throws {
        for arguments in [
            ["-c", "udp:127.0.0.1:1337", "image", "lst"],
            ["image", "lst", "-c", "udp:127.0.0.1:1337"],
            ["image", "-c", "udp:127.0.0.1:1337", "--timeout", "2", "lst"],
            ["--timeout=2", "-vv", "image", "lst"],
        ] {
            let run = try await SMPCtl.run(arguments)
            assertExit(run, 64)
            XCTAssertTrue(
                run.stderr.hasPrefix("""
                    error: 'lst' is not a subcommand of 'smpctl image'; did you mean 'list'?
                    hint: the subcommands of 'smpctl image': list, test, confirm, erase, slots, info, upload
                    """), "\(run)")
        }
        let defaulted = try await SMPCtl.run(["-c", "udp:127.0.0.1", "shell", "exce", "ls"])
        assertStderr(defaulted, contains: "error: 'exce' is not a subcommand of 'smpctl shell'; did you mean 'exec'?")
        let top = try await SMPCtl.run(["-c", "udp:127.0.0.1", "imgae", "list"])
        assertStderr(top, contains: "error: 'imgae' is not a subcommand of 'smpctl'; did you mean 'image'?")
        let json = try await SMPCtl.run(["--json", "image", "lst"])
        try assertErrorDocument(json, name: "usage-error", code: 64, messageContains: ["'lst' is not a subcommand of 'smpctl image'"])
        let missing = try await SMPCtl.run(["-c", "udp:127.0.0.1", "image"])
        assertExit(missing, 64)
        assertStderr(missing, contains: "error: 'smpctl image' needs a subcommand: list, test")
    }

    func testAMistypedOptionIsNamedWithTheClosestOne() async throws {
        let run = try await SMPCtl.run(["-c", "udp:127.0.0.1", "fs", "hash", "/lfs1/a", "--ofset", "3"])
        assertExit(run, 64)
        XCTAssertTrue(run.stderr.hasPrefix("error: unknown option '--ofset' for 'smpctl fs hash'; did you mean '--offset'?\nhint: "), "\(run)")
        let far = try await SMPCtl.run(["-c", "udp:127.0.0.1", "image", "list", "--ofset", "3"])
        XCTAssertTrue(far.stderr.hasPrefix("error: unknown option '--ofset' for 'smpctl image list'\nhint: "), "no far-fetched name: \(far)")
        let before = try await SMPCtl.run(["--ofset", "3", "fs", "hash", "/lfs1/a"])
        assertStderr(before, contains: "unknown option '--ofset' for 'smpctl' (before the subcommand)", "hint: only the global options")
        let renamed = try await SMPCtl.run(["ports", "--wait", "--timeout", "3"])
        assertStderr(renamed, contains: "error: 'smpctl ports' has no option --timeout any more: the whole wait of --wait is --wait-timeout")
        let payload = try await SMPCtl.run(["raw", "--group", "os", "--command", "0", "--op", "write", "--json", "{\"d\":1}"])
        assertStderr(payload, contains: "the payload is --payload-json")
    }

    /// Negative numbers reach the option's own check (the parser alone reads `-5` as an option),
    /// and every refusal states the range.
    func testNumbersOutOfRangeAreRefusedWithTheRange() async throws {
        let cases: [([String], String)] = [
            (["os", "echo", "--timeout", "-5"], "--timeout takes a number of seconds greater than 0 and at most 3600, not -5"),
            (["--timeout", "-5", "os", "echo"], "--timeout takes a number of seconds greater than 0 and at most 3600, not -5"),
            (["fs", "hash", "/lfs1/a", "--offset", "-5"], "--offset takes a whole number of bytes, 0 or more, not -5"),
            (["fs", "hash", "/lfs1/a", "--length", "0"], "--length takes a whole number of bytes, 1 or more, not 0"),
            (["image", "upload", "x.bin", "--window", "-1"], "--window takes a whole number of requests in flight from 1 to 64, not -1"),
            (["image", "erase", "--slot", "-1"], "--slot takes a whole number, 0 or more, not -1"),
            (["raw", "--group", "os", "--command", "-1", "--op", "read"], "--command takes a command ID from 0 to 255, not -1"),
            (["ports", "--wait", "--wait-timeout", "0"], "--wait-timeout takes a number of seconds greater than 0 and at most 86400, not 0"),
            (["upgrade", "x.bin", "--reset-timeout", "-1"], "--reset-timeout takes a number of seconds greater than 0 and at most 3600, not -1"),
            (["stat", "show", "g", "--watch", "1", "--count", "-2"], "--count takes a whole number of draws, 1 or more, not -2"),
        ]
        let positional = try await SMPCtl.run(["-c", "udp:127.0.0.1", "settings", "write", "a", "-5", "--as", "i32"])
        assertStderr(positional, contains: "(-5 was read as an option: give a negative value after --, as in … -- -5)")
        for (arguments, message) in cases {
            // `ports` is no device command: it takes no -c.
            let run = try await SMPCtl.run(arguments.first == "ports" ? arguments : ["-c", "udp:127.0.0.1"] + arguments)
            assertExit(run, 64)
            XCTAssertTrue(run.stderr.hasPrefix("error: \(message)\nhint: "), "\(run)")
        }
    }

    func testTheClosestName() {
        XCTAssertEqual(ClosestName.to("lst", among: ["list", "test", "confirm"]), "list")
        XCTAssertEqual(ClosestName.to("uplaod", among: ["upload", "upgrade"]), "upload")
        XCTAssertEqual(ClosestName.to("ima", among: ["os", "image"]), "image")
        XCTAssertNil(ClosestName.to("frobnicate", among: ["echo", "reset", "info"]))
    }

    /// In process: for every device command, the global options parse the same before, between
    /// and after the subcommand words.
    func testGlobalOptionsParseTheSameInEveryPosition() async throws {
        let globals = ["-c", "udp:127.0.0.1", "--timeout", "2", "--retries", "1", "-v", "--json"]
        let devices = OptionTableTests.deviceCommands(try await OptionTableTests.options())
        XCTAssertGreaterThan(devices.count, 40)
        for command in devices.sorted() {
            let path = command.split(separator: " ").map(String.init)
            let after = Self.outcome(path + globals)
            XCTAssertFalse(after.contains("nknown option"), "\(command): \(after)")
            XCTAssertEqual(Self.outcome(globals + path), after, command)
            if path.count > 1 {
                XCTAssertEqual(Self.outcome([path[0]] + globals + path.dropFirst()), after, command)
            }
        }
    }

    /// "ok", or the parser's message, for `arguments` as `main` parses them.
    private static func outcome(_ arguments: [String]) -> String {
        do {
            _ = try smpctl.SMPCtl.parseAsRoot(LeadingOptions.reorder(arguments, root: smpctl.SMPCtl.self))
            return "ok"
        } catch {
            return smpctl.SMPCtl.message(for: error)
        }
    }
}
