import SMP
import SMPSimulator
import SMPUDP
import XCTest

/// Echoes still complete, correctly, through a link with injected faults.
final class UDPFaultInjectionTests: XCTestCase {
    private let tolerant = SMPClientConfiguration(
        timeout: .milliseconds(300), retries: 12, busyRetries: 12, busyBackoff: .milliseconds(5))

    private func echoes(through faults: FaultInjection, count: Int = 200) async throws -> FaultStatistics {
        let link = try await SimulatorLink.start(faults: faults, client: tolerant)
        let client = link.client
        let results = await withTaskGroup(of: (Int, Result<String, SMPError>).self) { group in
            for index in 0..<count {
                group.addTask {
                    do throws(SMPError) {
                        return (index, .success(try await client.send(OSEcho("echo \(index)"))))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var results: [Int: Result<String, SMPError>] = [:]
            for await (index, result) in group { results[index] = result }
            return results
        }
        for index in 0..<count {
            switch results[index] {
            case .success(let text)?: XCTAssertEqual(text, "echo \(index)")
            case .failure(let error)?: XCTFail("echo \(index): \(error)")
            case nil: XCTFail("echo \(index) has no result")
            }
        }
        let statistics = await link.device.faultStatistics
        await link.stop()
        return statistics
    }

    func testDrop() async throws {
        let statistics = try await echoes(through: FaultInjection(drop: 0.2, seed: 1))
        XCTAssertGreaterThan(statistics.dropped, 10)
    }

    func testDuplicate() async throws {
        let statistics = try await echoes(through: FaultInjection(duplicate: 0.2, seed: 2))
        XCTAssertGreaterThan(statistics.duplicated, 10)
    }

    func testDelay() async throws {
        let statistics = try await echoes(through: FaultInjection(delay: 0.2, delayDuration: .milliseconds(50), seed: 3))
        XCTAssertGreaterThan(statistics.delayed, 10)
    }

    func testReorder() async throws {
        let statistics = try await echoes(through: FaultInjection(reorder: 0.2, seed: 4))
        XCTAssertGreaterThan(statistics.reordered, 10)
    }

    func testCorrupt() async throws {
        let statistics = try await echoes(through: FaultInjection(corrupt: 0.2, seed: 5))
        XCTAssertGreaterThan(statistics.corrupted, 10)
    }

    func testBusy() async throws {
        let statistics = try await echoes(through: FaultInjection(busy: 0.2, seed: 6))
        XCTAssertGreaterThan(statistics.busy, 10)
    }

    func testEverythingAtOnce() async throws {
        let faults = FaultInjection(
            drop: 0.05, duplicate: 0.05, delay: 0.05, delayDuration: .milliseconds(40), reorder: 0.05, corrupt: 0.05,
            busy: 0.05, seed: 7)
        let statistics = try await echoes(through: faults)
        XCTAssertGreaterThan(statistics.responses, 200)
    }
}
