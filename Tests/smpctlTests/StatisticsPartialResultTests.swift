import Foundation
import SMP
import SMPSimulator
import XCTest

/// `stat all` and `stat show A B C` keep going past a group the device refuses (here an answer too
/// large for its buffer, MGMT_ERR_EMSGSIZE, as Zephyr answers `flash_sim_stats`): what was read is
/// printed, each failed group is named with its error and hint, and the exit code is the first
/// failure's. For `stat all` a group too large for the device is a limit of the device: a note,
/// said once, and exit 0.
final class StatisticsPartialResultTests: XCTestCase {
    /// The one note `stat all` gives for the group too large for the device's buffer.
    private let tooLargeNote = "note: statistics group flash_sim_stats not read: its counters do not fit in one answer of the device's SMP buffer "
        + "(MGMT_ERR_EMSGSIZE); only firmware with a larger buffer (MCUMGR_TRANSPORT_NETBUF_SIZE; `smpctl os params` shows it) can report them\n"

    /// A 384-byte buffer (Zephyr's serial default) and a 60-counter group between the usual two.
    private var device: VirtualDeviceConfiguration {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.bufferSize = 384
        configuration.statistics?.groups.insert(SimulatedStatisticsGroup.numbered(name: "flash_sim_stats", count: 60), at: 1)
        return configuration
    }

    func testAllPrintsTheOtherGroupsAndNamesTheOneThatDoesNotFit() async throws {
        let served = try await startDevice(device)
        let run = try await SMPCtl.run(["stat", "all", "-c", served.endpoint])
        assertExit(run, 0)
        let groups = run.stdout.split(separator: "\n").dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) }
        XCTAssertEqual(groups, ["smp_svr_stats", "mgmt", "mgmt"], run.stdout)
        XCTAssertEqual(run.stderr, tooLargeNote, "one true statement, once")
    }

    func testShowOfTheGroupByNameIsAnErrorThatSaysItOnce() async throws {
        let served = try await startDevice(device)
        let run = try await SMPCtl.run(["stat", "show", "mgmt", "flash_sim_stats", "-c", served.endpoint])
        assertExit(run, 2)
        XCTAssertEqual(run.stderr, """
            error: statistics group flash_sim_stats: stat read "flash_sim_stats" (group 2 command 0 read): the device answered MGMT_ERR_EMSGSIZE (7): the answer does not fit in the device's SMP buffer
            hint: a group's counters come in one answer: only firmware with a larger buffer (MCUMGR_TRANSPORT_NETBUF_SIZE; `smpctl os params` shows it) can report them

            """)
    }

    func testAllAsJSONCarriesTheGroupsReadAndTheFailures() async throws {
        let served = try await startDevice(device)
        let run = try await SMPCtl.run(["stat", "all", "-c", served.endpoint, "--json"])
        assertExit(run, 0)
        let document = try run.jsonDocument()
        XCTAssertEqual(document.keys, ["failures", "groups", "schemaVersion"], "one document, not an error document")
        XCTAssertEqual(document["groups"]?.array?.map { $0["name"]?.string }, ["smp_svr_stats", "mgmt"])
        let failures = try XCTUnwrap(document["failures"]?.array)
        XCTAssertEqual(failures.count, 1)
        let failure = try XCTUnwrap(failures.first)
        XCTAssertEqual(failure.keys, ["error", "item"])
        XCTAssertEqual(failure["item"]?.string, "flash_sim_stats")
        let error = try XCTUnwrap(failure["error"])
        XCTAssertEqual(error["name"]?.string, "device-error")
        XCTAssertEqual(error["code"]?.int, 2)
        XCTAssertEqual(error["device"]?["rc"]?.int, 7)
        XCTAssertEqual(error["device"]?["rcName"]?.string, "MGMT_ERR_EMSGSIZE")
        XCTAssertTrue(error["message"]?.string?.contains("does not fit in the device's SMP buffer") == true, run.stdout)
        XCTAssertTrue(error["hint"]?.string?.contains("smpctl os params") == true, run.stdout)
    }

    func testShowOfSeveralNamesEveryFailureWithItsOwnHint() async throws {
        let served = try await startDevice(device)
        let run = try await SMPCtl.run(["stat", "show", "nope", "mgmt", "flash_sim_stats", "-c", served.endpoint, "--json"])
        assertExit(run, 2)
        let document = try run.jsonDocument()
        XCTAssertEqual(document["groups"]?.array?.map { $0["name"]?.string }, ["mgmt"])
        let failures = try XCTUnwrap(document["failures"]?.array)
        XCTAssertEqual(failures.map { $0["item"]?.string }, ["nope", "flash_sim_stats"], "in the order asked")
        XCTAssertEqual(failures.first?["error"]?["device"]?["group"]?.int, 63)
        XCTAssertTrue(failures.first?["error"]?["hint"]?.string?.contains("smpctl stat list") == true, run.stdout)
        assertStderr(run, contains: "error: statistics group nope: ", "error: statistics group flash_sim_stats: ")

        let single = try await SMPCtl.run(["stat", "show", "flash_sim_stats", "-c", served.endpoint, "--json"])
        try assertErrorDocument(single, name: "device-error", code: 2, messageContains: ["MGMT_ERR_EMSGSIZE"])
    }

    func testWatchDrawsCarryTheFailuresAndTheExitCodeFollows() async throws {
        let served = try await startDevice(device)
        let run = try await SMPCtl.run(["stat", "all", "--watch", "0.1", "--count", "2", "--json", "-c", served.endpoint])
        assertExit(run, 0)
        XCTAssertEqual(run.stderr, tooLargeNote)
        let lines = try run.stdout.split(separator: "\n").map { try JSONNode(JSONSerialization.jsonObject(with: Data($0.utf8))) }
        XCTAssertEqual(lines.count, 2, run.stdout)
        for line in lines {
            XCTAssertEqual(line["groups"]?.array?.count, 2)
            XCTAssertEqual(line["failures"]?.array?.map { $0["item"]?.string }, ["flash_sim_stats"])
        }
    }

    func testAWatchedTableShowsTheFailedGroupInEveryDrawAndTheErrorOnceAtTheEnd() async throws {
        let served = try await startDevice(device)
        let run = try await SMPCtl.run(["stat", "all", "--watch", "0.1", "--count", "3", "-c", served.endpoint])
        assertExit(run, 0)
        let blocks = run.stdout.components(separatedBy: "\n\n")
        XCTAssertEqual(blocks.count, 3, run.stdout)
        for block in blocks {
            XCTAssertTrue(block.contains("flash_sim_stats  (not read: MGMT_ERR_EMSGSIZE)"), block)
            XCTAssertTrue(block.contains("mgmt"), block)
        }
        XCTAssertEqual(run.stderr, tooLargeNote, "the notice once, not on every refresh")
    }

    func testATimeoutStillEndsTheWalk() async throws {
        let served = try await startDevice(device, faults: FaultInjection(drop: 1))
        let run = try await SMPCtl.run(["stat", "show", "mgmt", "smp_svr_stats", "-c", served.endpoint, "--timeout", "0.3", "--retries", "0"])
        assertExit(run, 75)
        XCTAssertEqual(run.stdout, "")
        XCTAssertFalse(run.stderr.contains("statistics group mgmt"), run.stderr)
    }

    func testTheSimulatorsStatGroupOption() async throws {
        let (_, endpoint) = try await startSimulateProcess(["--buf-size", "384", "--stat-group", "flash_sim_stats:60", "--stat-group", "tiny:2"])
        let list = try await SMPCtl.run(["stat", "list", "-c", endpoint])
        assertSuccess(list)
        XCTAssertEqual(list.stdout, "smp_svr_stats\nmgmt\nflash_sim_stats\ntiny\n")
        let all = try await SMPCtl.run(["stat", "all", "-c", endpoint, "--json"])
        assertExit(all, 0)
        let document = try all.jsonDocument()
        XCTAssertEqual(document["groups"]?.array?.map { $0["name"]?.string }, ["smp_svr_stats", "mgmt", "tiny"])
        XCTAssertEqual(document["groups"]?[2]?["fields"]?["counter_1"]?.int, 1)
        XCTAssertEqual(document["failures"]?[0]?["error"]?["device"]?["rc"]?.int, 7)
        for bad in ["flash_sim_stats", "x:0", ":3", "x:y"] {
            let run = try await SMPCtl.run(["simulate", "--stat-group", bad], timeout: 10)
            assertExit(run, 64)
            assertStderr(run, contains: "--stat-group \(bad): expected NAME:COUNT")
        }
    }
}
