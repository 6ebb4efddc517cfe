import CBOR
import SMP
import SMPSimulator
import XCTest

/// The simulated Mynewt log (docs/protocol/groups.md §7), crash and run (docs/protocol/groups.md §8) groups.
final class MynewtDiagnosticGroupsTests: XCTestCase {
    private func show(_ payload: CBORMap = [:]) -> [UInt8] {
        TestFrames.request(.read, group: .log, command: LogCommandID.show, payload: payload)
    }

    func testShowReturnsEveryLogWithTypedEntries() async throws {
        let device = VirtualDevice(configuration: .mynewtLike)
        let response = try await device.respond(to: show())
        XCTAssertEqual(response.payload["rc"], 0)
        let answer = try LogShow().decodeResponse(response.payload)
        XCTAssertEqual(answer.logs.map(\.name), ["reboot_log", "log"])
        XCTAssertEqual(answer.nextIndex, 6)
        let entries = answer.logs[1].entries
        XCTAssertEqual(entries.map(\.index), [1, 2, 3, 4, 5], "indexes are global across logs")
        XCTAssertEqual(entries[0].message, .text("system started"))
        XCTAssertEqual(entries[2].message, .cbor([0xA1, 0x63, 0x72, 0x73, 0x73, 0x2A]))
        XCTAssertEqual(entries[3].message, .binary([0xDE, 0xAD, 0xBE, 0xEF]))
        XCTAssertEqual(Set(entries.map(\.level)).count, 5)
    }

    func testShowFiltersByNameIndexAndTimestamp() async throws {
        let device = VirtualDevice(configuration: .mynewtLike)
        let fromIndex = try LogShow().decodeResponse(try await device.respond(to: show(["log_name": "log", "index": 3])).payload)
        XCTAssertEqual(fromIndex.logs.map(\.name), ["log"])
        XCTAssertEqual(fromIndex.logs[0].entries.map(\.index), [3, 4, 5])
        let newer = try LogShow().decodeResponse(try await device.respond(to: show(["ts": 3_000_000])).payload)
        XCTAssertEqual(newer.logs.flatMap(\.entries).map(\.index), [4, 5])
        let unknown = try await device.respond(to: show(["log_name": "nope"]))
        XCTAssertEqual(unknown.payload, ["rc": 5])
    }

    func testASmallBufferCutsTheAnswerAndTheClientFollowsNextIndex() async throws {
        var configuration = VirtualDeviceConfiguration.mynewtLike
        configuration.bufferSize = 160
        let device = VirtualDevice(configuration: configuration)
        let first = try LogShow().decodeResponse(try await device.respond(to: show()).payload)
        let received = first.logs.flatMap(\.entries).count
        XCTAssertLessThan(received, 6, "the buffer must cut the answer")
        XCTAssertGreaterThan(received, 0)
        XCTAssertEqual(first.nextIndex, UInt64(received))
        let rest = try LogShow().decodeResponse(try await device.respond(to: show(["index": .unsigned(first.nextIndex)])).payload)
        XCTAssertEqual(rest.logs.flatMap(\.entries).first?.index, first.nextIndex)
    }

    func testClearEmptiesALogAndTheMapsAndListAnswer() async throws {
        let device = VirtualDevice(configuration: .mynewtLike)
        _ = try await device.respond(to: TestFrames.request(.write, group: .log, command: LogCommandID.clear, payload: ["log_name": "log"]))
        let after = try LogShow().decodeResponse(try await device.respond(to: show()).payload)
        XCTAssertEqual(after.logs.map(\.entries.count), [1, 0])
        let modules = try LogModuleList().decodeResponse(try await device.respond(
            to: TestFrames.request(.read, group: .log, command: LogCommandID.moduleList)).payload)
        XCTAssertEqual(modules.first, LogNamedID(name: "DEFAULT", id: 0))
        let levels = try LogLevelList().decodeResponse(try await device.respond(
            to: TestFrames.request(.read, group: .log, command: LogCommandID.levelList)).payload)
        XCTAssertEqual(levels.map(\.name), ["DEBUG", "INFO", "WARN", "ERROR", "CRITICAL"])
        let logs = try LogList().decodeResponse(try await device.respond(
            to: TestFrames.request(.read, group: .log, command: LogCommandID.logList)).payload)
        XCTAssertEqual(logs, ["reboot_log", "log"])
    }

    func testZephyrHasNoMynewtGroups() async throws {
        let device = VirtualDevice()
        for group in [SMPGroup.log, .crash, .run] {
            let response = try await device.respond(to: TestFrames.request(.read, group: group, command: 1))
            XCTAssertEqual(response.payload, ["rc": 8], "\(group)")
        }
    }

    func testCrashAnswersThenResetsAndStaysSilentWhileBooting() async throws {
        var configuration = VirtualDeviceConfiguration.mynewtLike
        configuration.resetDelay = .milliseconds(10)
        configuration.bootTime = .seconds(1)
        let uptime = ManualUptime()
        let device = VirtualDevice(configuration: configuration, uptime: uptime.source)
        let crash = try await device.respond(to: TestFrames.request(.write, group: .crash, command: 0, payload: ["t": "div0"]))
        XCTAssertEqual(crash.payload, ["rc": 0])
        let resets = await device.resetCount
        XCTAssertEqual(resets, 1)
        uptime.advance(by: .milliseconds(500))
        let silent = await device.handle(frame: TestFrames.request(.read, command: 6))
        XCTAssertEqual(silent, [], "the device is booting")
        uptime.advance(by: .seconds(1))
        let back = await device.handle(frame: TestFrames.request(.read, command: 6))
        XCTAssertEqual(back.count, 1)
        let group = await device.group(.crash) as? CrashGroup
        XCTAssertEqual(group?.crashes, [.divideByZero])
        let unknown = try await device.respond(to: TestFrames.request(.write, group: .crash, command: 0, payload: ["t": "boom"]))
        XCTAssertEqual(unknown.payload, ["rc": 3])
    }

    func testRunListsAndStartsSuites() async throws {
        let device = VirtualDevice(configuration: .mynewtLike)
        let list = try await device.respond(to: TestFrames.request(.read, group: .run, command: RunCommandID.list))
        XCTAssertEqual(try RunList().decodeResponse(list.payload), ["os_test", "json_test", "util_test"])
        let start = try await device.respond(to: TestFrames.request(
            .write, group: .run, command: RunCommandID.test, payload: ["testname": "os_test", "token": "t1"]))
        XCTAssertEqual(start.payload, ["rc": 0])
        let unknown = try await device.respond(to: TestFrames.request(
            .write, group: .run, command: RunCommandID.test, payload: ["testname": "nope"]))
        XCTAssertEqual(unknown.payload, ["rc": 5])
        let group = await device.group(.run) as? RunGroup
        XCTAssertEqual(group?.runs.map(\.testName), ["os_test"])
        XCTAssertEqual(group?.runs.map(\.token), ["t1"])
    }
}
