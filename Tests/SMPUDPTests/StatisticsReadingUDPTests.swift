import SMP
import SMPSimulator
import XCTest

/// ``SMPClient/readStatistics(_:)`` over real UDP against the virtual device: a group the device
/// refuses does not stop a walk over several, a single group's refusal and a lost link throw.
final class StatisticsReadingUDPTests: XCTestCase {
    private func link() async throws -> SimulatorLink {
        var statistics = SimulatedStatisticsConfiguration()
        statistics.groups.append(.numbered(name: "huge", count: 400))
        var configuration = VirtualDeviceConfiguration(bufferSize: 512)
        configuration.statistics = statistics
        return try await SimulatorLink.start(configuration: configuration)
    }

    func testARefusedGroupDoesNotStopTheOthers() async throws {
        let link = try await link()
        let names = try await link.client.send(StatisticsList())
        XCTAssertTrue(names.contains("huge"), "\(names)")
        let reading = try await link.client.readStatistics(["nosuchgroup"] + names)
        XCTAssertEqual(reading.groups.map(\.name), names.filter { $0 != "huge" })
        XCTAssertEqual(reading.failures.map(\.name), ["nosuchgroup", "huge"])
        for failure in reading.failures {
            guard case .device = failure.error else { return XCTFail("\(failure.name): \(failure.error)") }
        }
        await link.stop()
    }

    func testASingleGroupsRefusalAndALostLinkThrow() async throws {
        let link = try await link()
        do {
            _ = try await link.client.readStatistics(["nosuchgroup"])
            XCTFail("a single refused group was not an error")
        } catch {
            guard case .device = error else { return XCTFail("\(error)") }
        }
        let names = try await link.client.send(StatisticsList())
        await link.server.stop()
        do {
            _ = try await link.client.readStatistics(names)
            XCTFail("a lost link was not an error")
        } catch {
            switch error {
            case .transport, .timeout: break  // refused on loopback, or silent
            default: XCTFail("\(error)")
            }
        }
        await link.client.close()
    }
}
