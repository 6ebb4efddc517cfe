import SMP
import SMPSimulator
import XCTest

/// `smpctl log …`, `smpctl crash test` and `smpctl run …` against a Mynewt-like device.
final class LogCommandTests: XCTestCase {
    func testShowPrintsEveryEntryWithLevelAndModuleNames() async throws {
        let served = try await startDevice(.mynewtForTests)
        let run = try await SMPCtl.run(["log", "show", "log", "-c", served.endpoint])
        assertSuccess(run)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "log log: 5 entries")
        XCTAssertEqual(lines[1].split(separator: " ").map(String.init), ["INDEX", "TIMESTAMP", "LEVEL", "MODULE", "MESSAGE"])
        XCTAssertEqual(lines[2].split(separator: " ").map(String.init), ["1", "2500000", "INFO", "DEFAULT", "system", "started"])
        XCTAssertEqual(lines[4].split(separator: " ").suffix(5).map(String.init), ["WARN", "NIMBLE_HOST", "cbor", "{\"rss\":", "-11}"])
        XCTAssertEqual(lines[5].split(separator: " ").suffix(4).map(String.init), ["ERROR", "OS", "hex", "deadbeef"])
    }

    func testShowFollowsNextIndexWhenTheBufferCutsTheAnswer() async throws {
        var configuration = VirtualDeviceConfiguration.mynewtForTests
        configuration.bufferSize = 160
        let served = try await startDevice(configuration)
        let run = try await SMPCtl.run(["log", "show", "-c", served.endpoint, "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        let logs = try XCTUnwrap(document["logs"]?.array)
        XCTAssertEqual(logs.flatMap { $0["entries"]?.array ?? [] }.map { $0["index"]?.int }, [0, 1, 2, 3, 4, 5])
        XCTAssertEqual(document["nextIndex"]?.int, 6)
        let requests = await served.requests
        XCTAssertGreaterThan(requests, 4, "several show requests, then the two maps")
        let entry = try XCTUnwrap(logs[1]["entries"]?[2])
        XCTAssertEqual(entry.keys, ["diagnostic", "index", "level", "levelName", "message", "module", "moduleName", "timestamp", "type"])
        XCTAssertEqual(entry["type"]?.string, "cbor")
        XCTAssertEqual(entry["diagnostic"]?.string, "{\"rss\": -11}")
    }

    func testShowLimitSinceAndUnknownLog() async throws {
        let served = try await startDevice(.mynewtForTests)
        let limited = try await SMPCtl.run(["log", "show", "--since", "2600000", "--limit", "2", "-c", served.endpoint, "--json"])
        assertSuccess(limited)
        let entries = try XCTUnwrap(try limited.jsonDocument()["logs"]?.array).flatMap { $0["entries"]?.array ?? [] }
        XCTAssertEqual(entries.map { $0["index"]?.int }, [2, 3])
        let unknown = try await SMPCtl.run(["log", "show", "nope", "-c", served.endpoint])
        assertExit(unknown, 2)
        assertStderr(unknown, contains: "MGMT_ERR_ENOENT")
    }

    func testClearListModulesLevels() async throws {
        let served = try await startDevice(.mynewtForTests)
        let clear = try await SMPCtl.run(["log", "clear", "log", "-c", served.endpoint])
        assertSuccess(clear)
        XCTAssertEqual(clear.stdout, "cleared log log\n")
        let show = try await SMPCtl.run(["log", "show", "log", "-c", served.endpoint])
        XCTAssertEqual(show.stdout, "log log: no entries\n")
        let list = try await SMPCtl.run(["log", "list", "-c", served.endpoint])
        XCTAssertEqual(list.stdout, "reboot_log\nlog\n")
        let levels = try await SMPCtl.run(["log", "levels", "-c", served.endpoint, "--json"])
        XCTAssertEqual(try levels.jsonDocument()["levels"]?[4]?["name"]?.string, "CRITICAL")
        let modules = try await SMPCtl.run(["log", "modules", "-c", served.endpoint])
        XCTAssertTrue(modules.stdout.hasPrefix("MODULE       ID\nDEFAULT       0\n"), modules.description)
    }

    func testLogOnZephyrIsNotSupported() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["log", "list", "-c", served.endpoint])
        assertExit(run, 2)
        assertStderr(run, contains: "MGMT_ERR_ENOTSUP", "hint: it is probably not compiled in")
    }

    func testCrashNeedsConfirmationWithoutATerminal() async throws {
        let served = try await startDevice(.mynewtForTests)
        let run = try await SMPCtl.run(["crash", "test", "div0", "-c", served.endpoint])
        assertExit(run, 64)
        assertStderr(run, contains: "standard input is not a terminal", "add --yes to crash the device")
        let requests = await served.requests
        XCTAssertEqual(requests, 0)
    }

    func testCrashWithYesResetsTheDevice() async throws {
        let served = try await startDevice(.mynewtForTests)
        let run = try await SMPCtl.run(["crash", "test", "assert", "--yes", "-c", served.endpoint, "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document["crash"]?.string, "assert")
        XCTAssertEqual(document["answered"]?.bool, true)
        let resets = await served.device.resetCount
        XCTAssertEqual(resets, 1)
    }

    func testACrashWithoutAnswerIsSuccess() async throws {
        let served = try await startDevice(.mynewtForTests, faults: FaultInjection(drop: 1))
        let run = try await SMPCtl.run(["crash", "test", "wdog", "--yes", "--timeout", "0.3", "-c", served.endpoint])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "the device crashed as asked (wdog; no answer)\n")
    }

    func testRunListAndTestOverTheSerialLink() async throws {
        var configuration = VirtualDeviceConfiguration.mynewtForTests
        configuration.bufferSize = 384
        let served = try await startSerialDevice(configuration)
        let list = try await SMPCtl.run(["run", "list", "-c", served.connection])
        assertSuccess(list)
        XCTAssertEqual(list.stdout, "os_test\njson_test\nutil_test\n")
        let test = try await SMPCtl.run(["run", "test", "os_test", "--token", "abc", "-c", served.connection, "--json"])
        assertSuccess(test)
        XCTAssertEqual(try test.jsonDocument()["started"]?.string, "os_test")
        let group = await served.device.group(.run) as? RunGroup
        XCTAssertEqual(group?.runs.map(\.token), ["abc"])
        let unknown = try await SMPCtl.run(["run", "test", "nope", "-c", served.connection])
        assertExit(unknown, 2)
    }
}
