import SMP
import SMPSerial
import SMPSimulator
import XCTest

/// On a serial link the device answers in order, so a lost request shows as soon as a later one
/// is answered, or as soon as a small probe sent after it is: it is sent again at once, never
/// after its (here deliberately long) timeout.
final class InOrderRecoveryTests: XCTestCase {
    /// Timeouts far longer than the test may take: any recovery by timeout would show as a hang.
    private let patient = SMPClientConfiguration(timeout: .seconds(60), retries: 5)

    func testLostAnswersInAWindowAreRecoveredByLaterAnswers() async throws {
        let link = try await PTYLink.start(faults: FaultInjection(drop: 0.2, seed: 7), client: patient)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<30 {
                group.addTask {
                    let text = "in order \(index)"
                    let answer = try await link.client.send(OSEcho(text))
                    XCTAssertEqual(answer, text)
                }
            }
            try await group.waitForAll()
        }
        let statistics = await link.client.statistics
        let dropped = await link.device.faultStatistics.dropped
        XCTAssertGreaterThan(dropped, 0)
        XCTAssertGreaterThan(statistics.lost, 0)
        XCTAssertEqual(statistics.retransmissions, statistics.lost, "every request was sent again at once, none after its timeout")
        await link.stop()
    }

    func testALoneLostRequestIsFoundByAProbe() async throws {
        let link = try await PTYLink.start(faults: FaultInjection(drop: 0.25, seed: 3), client: patient)
        for index in 0..<12 {
            let text = "alone \(index)"
            let answer = try await link.client.send(OSEcho(text))
            XCTAssertEqual(answer, text)
        }
        let statistics = await link.client.statistics
        XCTAssertGreaterThan(statistics.lost, 0, "probes showed the lost requests")
        XCTAssertEqual(statistics.retransmissions, statistics.lost, "every request was sent again at once, none after its timeout")
        await link.stop()
    }

    func testARequestThatMayNotBeRepeatedIsNotSentAgain() async throws {
        let link = try await PTYLink.start(
            faults: FaultInjection(drop: 1, seed: 1), client: SMPClientConfiguration(timeout: .milliseconds(600), retries: 5))
        var request = OSEcho("once").request
        request.isRetrySafe = false
        do {
            _ = try await link.client.exchange(request)
            XCTFail("every answer is dropped")
        } catch {
            guard case .timeout(_, _, let attempts, _, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(attempts, 1)
        }
        await link.stop()
    }
}
