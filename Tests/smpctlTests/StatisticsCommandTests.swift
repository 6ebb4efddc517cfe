import Foundation
import SMP
import SMPSimulator
import XCTest

/// `smpctl stat list|show|all`, once and with `--watch`, as text and JSON, over UDP and serial.
final class StatisticsCommandTests: XCTestCase {
    func testListAndShow() async throws {
        let served = try await startDevice()
        let list = try await SMPCtl.run(["stat", "list", "-c", served.endpoint])
        assertSuccess(list)
        XCTAssertEqual(list.stdout, "smp_svr_stats\nmgmt\n")

        let show = try await SMPCtl.run(["stat", "show", "mgmt", "-c", served.endpoint])
        assertSuccess(show)
        let lines = show.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(lines.first, ["GROUP", "FIELD", "VALUE"])
        XCTAssertEqual(lines.dropFirst().map { Array($0.prefix(2)) }, [["mgmt", "requests"], ["mgmt", "errors"]])
        XCTAssertEqual(lines.last?.last, "0")
    }

    func testAllAsJSON() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["stat", "all", "-c", served.endpoint, "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document.keys, ["failures", "groups", "schemaVersion"])
        XCTAssertEqual(document["failures"]?.array?.count, 0)
        let groups = try XCTUnwrap(document["groups"]?.array)
        XCTAssertEqual(groups.map { $0["name"]?.string }, ["smp_svr_stats", "mgmt"])
        XCTAssertEqual(groups[1]["fields"]?.keys, ["errors", "requests"])
        XCTAssertEqual(groups[1]["fields"]?["requests"]?.int, 3, "list, then smp_svr_stats, then this read")
        XCTAssertNotNil(groups[0]["fields"]?["ticks"]?.int)
    }

    func testUnknownNameIsAClearDeviceError() async throws {
        let served = try await startDevice()
        let human = try await SMPCtl.run(["stat", "show", "nope", "-c", served.endpoint])
        assertExit(human, 2)
        assertStderr(human, contains: "stat read \"nope\"", "STAT_MGMT_ERR_INVALID_STAT_NAME", "hint: `smpctl stat list` shows")
        let json = try await SMPCtl.run(["stat", "show", "nope", "-c", served.endpoint, "--json"])
        let error = try assertErrorDocument(json, name: "device-error", code: 2, messageContains: ["INVALID_STAT_NAME"])
        XCTAssertEqual(error["device"]?["group"]?.int, 63)
        XCTAssertEqual(error["device"]?["rc"]?.int, 3)

        let legacy = try await startDevice(.mynewtForTests)
        let v1 = try await SMPCtl.run(["stat", "show", "nope", "-c", legacy.endpoint])
        assertExit(v1, 2)
        assertStderr(v1, contains: "MGMT_ERR_ENOENT", "hint: `smpctl stat list`")
    }

    func testWatchPrintsRepeatedBlocksWithDeltasWhenNotATerminal() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["stat", "show", "mgmt", "--watch", "0.1", "--count", "3", "-c", served.endpoint])
        assertSuccess(run)
        let blocks = run.stdout.components(separatedBy: "\n\n")
        XCTAssertEqual(blocks.count, 3, run.description)
        XCTAssertFalse(run.stdout.contains("\u{1B}["), "no cursor movement without a terminal")
        XCTAssertEqual(blocks[0].split(separator: "\n").first?.split(separator: " ").map(String.init), ["GROUP", "FIELD", "VALUE"])
        let second = blocks[1].split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(second.first, ["GROUP", "FIELD", "VALUE", "DELTA", "RATE/S"])
        XCTAssertEqual(second[1].prefix(4), ["mgmt", "requests", "2", "+1"], "one request per draw")
        XCTAssertEqual(second[2].prefix(4), ["mgmt", "errors", "0", "+0"])
    }

    func testWatchAsJSONLines() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["stat", "all", "--watch", "0.1", "--count", "2", "--json", "-c", served.endpoint])
        assertSuccess(run)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, run.description)
        let documents = try lines.map { try JSONNode(JSONSerialization.jsonObject(with: Data($0.utf8))) }
        XCTAssertEqual(documents.map { $0["draw"]?.int }, [1, 2])
        XCTAssertEqual(documents[0]["groups"]?[1]?.keys, ["fields", "name"])
        XCTAssertEqual(documents[1]["groups"]?[1]?.keys, ["deltas", "fields", "name", "ratesPerSecond"])
        XCTAssertEqual(documents[1]["groups"]?[1]?["deltas"]?["requests"]?.int, 2, "two reads per draw")
        XCTAssertNotNil(documents[1]["groups"]?[1]?["ratesPerSecond"]?["requests"]?.double)
    }

    func testWatchOptionsAreChecked() async throws {
        let count = try await SMPCtl.run(["stat", "all", "--count", "2", "-c", "udp:127.0.0.1"])
        assertExit(count, 64)
        assertStderr(count, contains: "--count applies to --watch")
        let watch = try await SMPCtl.run(["stat", "all", "--watch", "0", "-c", "udp:127.0.0.1"])
        assertExit(watch, 64)
    }

    func testShowOverTheSerialLinkWithSyntheticNames() async throws {
        var configuration = VirtualDeviceConfiguration.serialImageDevice
        configuration.statistics?.syntheticNames = true
        let served = try await startSerialDevice(configuration)
        let run = try await SMPCtl.run(["stat", "show", "smp_svr_stats", "mgmt", "--json", "-c", served.connection])
        assertSuccess(run)
        let groups = try XCTUnwrap(try run.jsonDocument()["groups"]?.array)
        XCTAssertEqual(groups.map { $0["fields"]?.keys ?? [] }, [["s0"], ["s0", "s1"]])
    }
}
