import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// `smpctl shell exec` and piped `smpctl shell` against the virtual device over UDP and serial.
final class ShellCommandTests: XCTestCase {
    private func executed(_ served: ServedDevice) async -> [[String]] {
        (await served.device.group(.shell) as? ShellGroup)?.executed ?? []
    }

    func testExecPrintsTheOutputAndExitsZero() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["shell", "exec", "-c", served.endpoint, "--", "echo", "hello", "-c", "x y"])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "hello -c x y\n")
        let argv = await executed(served)
        XCTAssertEqual(argv, [["echo", "hello", "-c", "x y"]])
    }

    /// Everything after smpctl's options is the device command: no `--` needed, a leading `--`
    /// still works, options before the command (and before `shell`) are smpctl's.
    func testExecTakesTheCommandWithoutDashes() async throws {
        let served = try await startDevice()
        let plain = try await SMPCtl.run(["shell", "exec", "-c", served.endpoint, "echo", "hello", "-c", "x y"])
        assertSuccess(plain)
        XCTAssertEqual(plain.stdout, "hello -c x y\n")
        let leading = try await SMPCtl.run(["-c", served.endpoint, "--json", "shell", "exec", "--", "echo", "two", "--json"])
        assertSuccess(leading)
        XCTAssertTrue(leading.stdout.contains("\"argv\":[\"echo\",\"two\",\"--json\"]"), "\(leading)")
        // smpctl's own options after the device command would reach the device: refused, before anything is sent.
        for (words, fixed) in [
            (["echo", "x", "--json"], "smpctl shell exec --json echo x"),
            (["echo", "x", "-c", served.endpoint], "smpctl shell exec -c \(served.endpoint) echo x"),
            (["echo", "x", "--timeout", "2", "y"], "smpctl shell exec --timeout 2 echo x y"),
        ] {
            let misplaced = try await SMPCtl.run(["shell", "exec", "-c", served.endpoint] + words)
            assertExit(misplaced, 64)
            XCTAssertTrue(misplaced.stderr.hasPrefix("error: \(words[2]) after the device command would be sent to the device as an argument: "
                + "write smpctl's options before the device command (\(fixed)), or put -- before the device command to send every word as written\n"),
                misplaced.description)
        }
        let dashes = try await SMPCtl.run(["shell", "exec", "--raw", "-c", served.endpoint, "--", "echo", "three"])
        assertSuccess(dashes)
        let help = try await SMPCtl.run(["shell", "exec", "--help"])
        assertSuccess(help)
        XCTAssertTrue(help.stdout.contains("smpctl shell exec -c udp:192.0.2.1 kernel uptime"), "\(help)")
        let argv = await executed(served)
        XCTAssertEqual(argv, [["echo", "hello", "-c", "x y"], ["echo", "two", "--json"], ["echo", "three"]])
    }

    func testExecExitsWithTheDeviceReturnCode() async throws {
        let served = try await startDevice()
        let unknown = try await SMPCtl.run(["shell", "exec", "-c", served.endpoint, "--", "frobnicate"])
        assertExit(unknown, 248)
        XCTAssertEqual(unknown.stdout, "frobnicate: command not found\n")
        let help = try await SMPCtl.run(["-c", served.endpoint, "shell", "exec", "--", "kernel"])
        assertExit(help, 1)
        XCTAssertTrue(help.stdout.contains("Subcommands:"), "\(help)")
    }

    /// The device answers as Zephyr's shell does (a leading CR LF, CR LF line ends, errors in red):
    /// into a pipe that is made plain, with --raw it stays as sent, in JSON it is plain unless --raw.
    func testPipedOutputIsPlainAndRawKeepsItAsSent() async throws {
        let served = try await startDevice()
        let sent = "\r\n\u{1B}[1;31mfrobnicate: command not found\r\n\u{1B}[m"
        let raw = try await SMPCtl.run(["shell", "exec", "--raw", "-c", served.endpoint, "--", "frobnicate"])
        assertExit(raw, 248)
        XCTAssertEqual(raw.stdout, sent + "\n", "as sent, and a line end after the last line")
        let rawJSON = try await SMPCtl.run(["shell", "exec", "--raw", "--json", "-c", served.endpoint, "--", "frobnicate"])
        XCTAssertEqual(try rawJSON.jsonDocument()["output"]?.string, sent)
        let json = try await SMPCtl.run(["shell", "exec", "--json", "-c", served.endpoint, "--", "kernel", "version"])
        XCTAssertEqual(try json.jsonDocument()["output"]?.string?.hasPrefix("Zephyr version"), true, "\(json)")
        XCTAssertFalse(json.stdout.contains("\\r"), "\(json)")
        let plain = try await SMPCtl.run(["shell", "exec", "-c", served.endpoint, "--", "device", "list"])
        assertSuccess(plain)
        XCTAssertFalse(plain.stdout.contains("\r") || plain.stdout.contains("\u{1B}"), "\(plain)")
        XCTAssertTrue(plain.stdout.hasPrefix("devices:\n"), "\(plain)")
        let piped = try await SMPCtl.run(["shell", "--raw", "-c", served.endpoint], input: "frobnicate\n")
        XCTAssertEqual(piped.stdout, sent + "\n")
    }

    func testExecReadsTheLegacyRc() async throws {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.shell = SimulatedShellConfiguration(legacyReturnCode: true)
        let served = try await startDevice(configuration)
        let failed = try await SMPCtl.run(["shell", "exec", "-c", served.endpoint, "--json", "--", "nope"])
        assertExit(failed, 248)
        let document = try failed.jsonDocument()
        XCTAssertEqual(document["returnCode"]?.int, -8)
        XCTAssertEqual(document["legacyReturnCode"]?.bool, true)
        let ok = try await SMPCtl.run(["shell", "exec", "-c", served.endpoint, "--", "echo", "fine"])
        assertSuccess(ok)
        XCTAssertEqual(ok.stdout, "fine\n")
    }

    func testExecJSON() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["shell", "exec", "-c", served.endpoint, "--json", "--", "kernel", "version"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document.keys, ["argv", "legacyReturnCode", "output", "returnCode", "schemaVersion"])
        XCTAssertEqual(document["argv"]?.array?.compactMap(\.string), ["kernel", "version"])
        XCTAssertEqual(document["returnCode"]?.int, 0)
        XCTAssertEqual(document["output"]?.string?.hasPrefix("Zephyr version"), true)
    }

    func testShellErrorsAreClear() async throws {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.shell = SimulatedShellConfiguration(commandBufferSize: 16)
        let served = try await startDevice(configuration)
        let empty = try await SMPCtl.run(["shell", "exec", "-c", served.endpoint])
        assertExit(empty, 2)
        assertStderr(empty, contains: "SHELL_MGMT_ERR_EMPTY_COMMAND", "the command line is empty")
        let long = try await SMPCtl.run(["shell", "exec", "-c", served.endpoint, "--json", "--", "echo", String(repeating: "x", count: 20)])
        let error = try assertErrorDocument(long, name: "device-error", code: 2, messageContains: ["COMMAND_TOO_LONG"])
        XCTAssertEqual(error["device"]?["group"]?.int, 9)
        XCTAssertEqual(error["device"]?["rc"]?.int, 2)
    }

    func testWithoutTheShellGroup() async throws {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.shell = nil
        let served = try await startDevice(configuration)
        let run = try await SMPCtl.run(["shell", "exec", "-c", served.endpoint, "kernel", "uptime"])
        assertExit(run, 2)
        assertStderr(run, contains: "the device has no shell management group (it answered MGMT_ERR_ENOTSUP (8))", "terminal program", "CONFIG_MCUMGR_GRP_SHELL=y")
        XCTAssertFalse(run.stderr.contains("does not implement"), "said once, not again in the hint:\n\(run.stderr)")
        XCTAssertEqual(run.stderr.components(separatedBy: "no shell management group").count, 2, run.stderr)
        let json = try await SMPCtl.run(["shell", "exec", "-c", served.endpoint, "--json", "kernel", "uptime"])
        try assertErrorDocument(json, name: "device-error", code: 2, messageContains: ["no shell management group"])
    }

    /// The real Zephyr `shell` fixture carries SMP over its shell UART but has no shell group: the
    /// hint names that very port and a terminal program for the device's own shell.
    func testTheShellFixtureSaysWhereItsShellIs() async throws {
        let folder = try ZephyrFixtureFolder.require()
        let device = try await NativeSimDevice.start(try folder.fixture(target: "native_sim", config: "shell"), in: folder)
        addTeardownBlock { device.stop() }
        let pty = try XCTUnwrap(device.ptyPath, "no pty in \(device.log)")
        let run = try await SMPCtl.run(["shell", "exec", "-c", "serial:\(pty)?framing=shell", "kernel", "uptime"], timeout: 60)
        assertExit(run, 2)
        assertStderr(run, contains: "no shell management group", "picocom -b 115200 \(pty)", "screen \(pty) 115200")
        XCTAssertFalse(run.stderr.contains("does not implement"), run.stderr)
    }

    func testPipedLinesRunOneByOneWithoutPrompt() async throws {
        let served = try await startDevice()
        let input = "echo 'one two' three\n\n# a comment\nkernel version\necho \"unterminated\nfrobnicate\n"
        let run = try await SMPCtl.run(["shell", "-c", served.endpoint], input: input)
        assertExit(run, 248)
        XCTAssertTrue(run.stdout.hasPrefix("one two three\nZephyr version"), "\(run)")
        XCTAssertTrue(run.stdout.hasSuffix("frobnicate: command not found\n"), "\(run)")
        XCTAssertFalse(run.stdout.contains("uart:~$"), "no prompt without a terminal")
        assertStderr(run, contains: "unterminated \" quote")
        let argv = await executed(served)
        XCTAssertEqual(argv, [["echo", "one two", "three"], ["kernel", "version"], ["frobnicate"]])
    }

    func testPipedJSONGivesOneDocumentPerCommand() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["shell", "-c", served.endpoint, "--json"], input: "echo a\necho b")
        assertSuccess(run)
        let lines = run.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, "\(run)")
        XCTAssertTrue(lines.last?.contains("\"output\":\"b\\n\"") == true, "\(run)")
    }

    func testExecOverTheSerialLink() async throws {
        let served = try await startSerialDevice()
        let run = try await SMPCtl.run(["shell", "exec", "-c", served.connection, "--", "device", "list"])
        assertSuccess(run)
        XCTAssertTrue(run.stdout.hasPrefix("devices:\n- uart@40002000 (READY)\n"), "\(run)")
    }
}
