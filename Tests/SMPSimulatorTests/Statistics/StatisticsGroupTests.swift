import CBOR
import SMP
import SMPSimulator
import XCTest

/// The simulated statistics group (docs/protocol/groups.md §5): list, read, errors in both flavours, synthetic names.
final class StatisticsGroupTests: XCTestCase {
    private func read(_ name: String?, versionBits: UInt8 = 1) -> [UInt8] {
        TestFrames.request(.read, group: .statistics, command: 0, versionBits: versionBits, payload: name.map { ["name": .text($0)] } ?? [:])
    }

    func testListNamesTheDefaultGroups() async throws {
        let device = VirtualDevice()
        let response = try await device.respond(to: TestFrames.request(.read, group: .statistics, command: 1))
        XCTAssertEqual(try StatisticsList().decodeResponse(response.payload), ["smp_svr_stats", "mgmt"])
        XCTAssertNil(response.payload["rc"], "Zephyr puts no rc in a successful answer")
    }

    func testTicksFollowTheUptimeAndMgmtCountsRequests() async throws {
        let uptime = ManualUptime()
        let device = VirtualDevice(uptime: uptime.source)
        uptime.advance(by: .milliseconds(2500))
        let first = try StatisticsRead(name: "smp_svr_stats").decodeResponse(try await device.respond(to: read("smp_svr_stats")).payload)
        XCTAssertEqual(first, StatisticsGroupData(name: "smp_svr_stats", fields: [.init(name: "ticks", value: 2)]))
        uptime.advance(by: .seconds(3))
        let later = try StatisticsRead(name: "smp_svr_stats").decodeResponse(try await device.respond(to: read("smp_svr_stats")).payload)
        XCTAssertEqual(later.value(of: "ticks"), 5)
        let mgmt = try StatisticsRead(name: "mgmt").decodeResponse(try await device.respond(to: read("mgmt")).payload)
        XCTAssertEqual(mgmt.fields.map(\.name), ["requests", "errors"])
        XCTAssertEqual(mgmt.value(of: "requests"), 3, "two reads before this one, and this one")
    }

    func testUnknownNameIsAStatErrorReportedWithGroup63() async throws {
        let device = VirtualDevice()
        let response = try await device.respond(to: read("nope"))
        XCTAssertEqual(response.payload, ["err": ["group": 63, "rc": 3]])
        let error = try XCTUnwrap(SMPDeviceError(payload: response.payload, requestGroup: 2))
        XCTAssertTrue(error.description.contains("STAT_MGMT_ERR_INVALID_STAT_NAME"), error.description)
        XCTAssertEqual(error.legacyReturnCode, .noEntry)
    }

    func testUnknownNameIsRc5ForV1AndTheLegacyFlavour() async throws {
        let zephyrV1 = try await VirtualDevice().respond(to: read("nope", versionBits: 0))
        XCTAssertEqual(zephyrV1.payload, ["rc": 5])
        let legacy = try await VirtualDevice(configuration: VirtualDeviceConfiguration(flavour: .legacy)).respond(to: read("nope"))
        XCTAssertEqual(legacy.payload, ["rc": 5])
    }

    func testMissingEmptyOrTooLongNamesAreInvalid() async throws {
        var configuration = VirtualDeviceConfiguration()
        configuration.statistics?.maximumNameLength = 8
        configuration.statistics?.groups.append(SimulatedStatisticsGroup(name: "a_long_name", counters: []))
        let device = VirtualDevice(configuration: configuration)
        for name in [nil, "", "a_long_name"] {
            let response = try await device.respond(to: read(name))
            XCTAssertEqual(response.payload, ["rc": 3], "name \(name ?? "missing")")
        }
    }

    func testSyntheticNames() async throws {
        var configuration = VirtualDeviceConfiguration()
        configuration.statistics?.syntheticNames = true
        let response = try await VirtualDevice(configuration: configuration).respond(to: read("mgmt"))
        XCTAssertEqual(try StatisticsRead(name: "mgmt").decodeResponse(response.payload).fields.map(\.name), ["s0", "s1"])
    }

    func testLegacyListCarriesRcZeroAndStillDecodes() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(flavour: .legacy))
        let response = try await device.respond(to: TestFrames.request(.read, group: .statistics, command: 1))
        XCTAssertEqual(response.payload["rc"], 0)
        XCTAssertNil(SMPDeviceError(payload: response.payload, requestGroup: 2))
        XCTAssertEqual(try StatisticsList().decodeResponse(response.payload).count, 2)
    }

    func testTurnedOffAnswersNotSupported() async throws {
        var configuration = VirtualDeviceConfiguration()
        configuration.statistics = nil
        let response = try await VirtualDevice(configuration: configuration).respond(to: read("mgmt"))
        XCTAssertEqual(response.payload, ["rc": 8])
    }
}
