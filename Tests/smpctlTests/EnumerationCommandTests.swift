import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// `smpctl enum …` and `smpctl groups` (enumeration, or probing on devices without it).
final class EnumerationCommandTests: XCTestCase {
    func testCountListSingleAndDetails() async throws {
        let served = try await startDevice(VirtualDeviceConfiguration.udpImageDevice.withOnlyCoreGroups())
        let count = try await SMPCtl.run(["enum", "count", "-c", served.endpoint])
        assertSuccess(count)
        XCTAssertEqual(count.stdout, "4\n")

        let list = try await SMPCtl.run(["enum", "list", "-c", served.endpoint, "--json"])
        assertSuccess(list)
        XCTAssertEqual(try list.jsonDocument()["groups"]?.array?.map { $0.int }, [0, 1, 2, 10])

        let single = try await SMPCtl.run(["enum", "single", "3", "-c", served.endpoint])
        assertSuccess(single)
        XCTAssertEqual(single.stdout, "enum (10) (the last group)\n")

        let details = try await SMPCtl.run(["enum", "details", "stat", "0", "-c", served.endpoint, "--json"])
        assertSuccess(details)
        let groups = try XCTUnwrap(try details.jsonDocument()["groups"]?.array)
        XCTAssertEqual(groups.map { $0["name"]?.string }, ["os mgmt", "stat mgmt"])
        XCTAssertEqual(groups.map { $0["handlers"]?.int }, [9, 2])
    }

    /// One name per group on the command line: `enum list` names the groups as their commands
    /// are named (`stat`, not `statistics`), and `raw --group` and `enum details` take those names.
    func testGroupsGoByTheirCommandsNames() async throws {
        let served = try await startDevice(VirtualDeviceConfiguration.udpImageDevice.withOnlyCoreGroups())
        let list = try await SMPCtl.run(["enum", "list", "-c", served.endpoint])
        assertSuccess(list)
        XCTAssertEqual(list.stdout.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") },
                       ["GROUP NAME", "0 os", "1 image", "2 stat", "10 enum"])
        let raw = try await SMPCtl.run(["raw", "--group", "stat", "--command", "1", "--op", "read", "-c", served.endpoint, "--json"])
        assertSuccess(raw)
        XCTAssertEqual(try raw.jsonDocument()["group"]?.int, 2, raw.description)
    }

    func testIndexTooLargeAndNoEnumeration() async throws {
        let served = try await startDevice()
        let past = try await SMPCtl.run(["enum", "single", "9", "-c", served.endpoint, "--json"])
        let error = try assertErrorDocument(past, name: "device-error", code: 2, messageContains: ["ENUM_MGMT_ERR_INDEX_TOO_LARGE"])
        XCTAssertEqual(error["device"]?["group"]?.int, 10)

        let mynewt = try await startDevice(.mynewtForTests)
        let count = try await SMPCtl.run(["enum", "count", "-c", mynewt.endpoint])
        assertExit(count, 2)
        assertStderr(count, contains: "MGMT_ERR_ENOTSUP")

        let bad = try await SMPCtl.run(["enum", "details", "nonsense", "-c", served.endpoint])
        assertExit(bad, 64)
        assertStderr(bad, contains: "unknown group \"nonsense\"")
    }

    func testGroupsUsesEnumeration() async throws {
        let served = try await startDevice(VirtualDeviceConfiguration.udpImageDevice.withOnlyCoreGroups())
        let human = try await SMPCtl.run(["groups", "-c", served.endpoint])
        assertSuccess(human)
        let rows = human.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        XCTAssertEqual(rows.first, ["GROUP", "NAME", "HANDLERS", "SMPCTL"])
        XCTAssertEqual(rows[1], ["0", "os", "mgmt", "9", "smpctl", "os"])
        XCTAssertEqual(rows[3], ["2", "stat", "mgmt", "2", "smpctl", "stat"])
        XCTAssertTrue(human.stdout.contains("as the device's enumeration group reports"), human.stdout)

        let json = try await SMPCtl.run(["groups", "-c", served.endpoint, "--json"])
        assertSuccess(json)
        let document = try json.jsonDocument()
        XCTAssertEqual(document["source"]?.string, "enumeration")
        let groups = try XCTUnwrap(document["groups"]?.array)
        XCTAssertEqual(groups.map { $0["group"]?.int }, [0, 1, 2, 10])
        XCTAssertEqual(groups[3]["command"]?.string, "smpctl enum")
        XCTAssertEqual(groups[0].keys, ["command", "group", "handlers", "name"])
    }

    func testGroupsNamesTheCommandForEveryGroupOfADefaultDevice() async throws {
        let served = try await startDevice(.udpImageDevice)
        let json = try await SMPCtl.run(["groups", "-c", served.endpoint, "--json"])
        assertSuccess(json)
        let groups = try XCTUnwrap(try json.jsonDocument()["groups"]?.array)
        XCTAssertEqual(groups.compactMap { $0["group"]?.int }, [0, 1, 2, 3, 8, 9, 10, 63], "listed by group ID")
        let commands = Dictionary(uniqueKeysWithValues: groups.compactMap { entry in entry["group"]?.int.map { ($0, entry["command"]?.string) } })
        XCTAssertEqual(commands, [
            0: "smpctl os", 1: "smpctl image", 2: "smpctl stat", 3: "smpctl settings", 8: "smpctl fs", 9: "smpctl shell",
            10: "smpctl enum", 63: "smpctl zephyr",
        ])
    }

    func testGroupsProbesADeviceWithoutEnumeration() async throws {
        let served = try await startDevice(.mynewtForTests)
        let json = try await SMPCtl.run(["groups", "-c", served.endpoint, "--json"])
        assertSuccess(json)
        let document = try json.jsonDocument()
        XCTAssertEqual(document["source"]?.string, "probe")
        XCTAssertEqual(try XCTUnwrap(document["groups"]?.array).map { $0["group"]?.int }, [0, 2, 4, 7, 8])
        XCTAssertTrue(document["notProbed"]?.array?.contains { $0.int == 5 } ?? false, "crash has no harmless command")

        let human = try await SMPCtl.run(["groups", "-c", served.endpoint])
        assertSuccess(human)
        XCTAssertTrue(human.stdout.contains("the device has no enumeration group: probed each known group"), human.stdout)
        XCTAssertTrue(human.stdout.contains("smpctl log"), human.stdout)
    }
}
