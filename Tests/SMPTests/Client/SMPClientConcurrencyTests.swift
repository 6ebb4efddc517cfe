import CBOR
import SMPTestSupport
import XCTest
@testable import SMP

final class SMPClientConcurrencyTests: XCTestCase {
    /// Sends `count` echo requests at once and returns a task collecting every outcome by index.
    private func sendConcurrently(_ client: SMPClient, count: Int) -> Task<[Int: Result<String, SMPError>], Never> {
        Task {
            await withTaskGroup(of: (Int, Result<String, SMPError>).self) { group in
                for index in 0..<count {
                    group.addTask {
                        do throws(SMPError) {
                            return (index, .success(try await client.send(OSEcho("m\(index)"))))
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                var results: [Int: Result<String, SMPError>] = [:]
                for await (index, result) in group { results[index] = result }
                return results
            }
        }
    }

    func testMoreThan256ConcurrentRequestsWaitForAFreeSequenceNumber() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(10))
        let outcome = sendConcurrently(client, count: 300)

        await assertHeld(device, 256)
        try await Task.sleep(for: .milliseconds(50))
        let inFlight = await device.requests.count
        XCTAssertEqual(inFlight, 256, "no more than 256 requests may be in flight")
        let heldSequences = await device.held.map(\.header.sequence)
        XCTAssertEqual(Set(heldSequences).count, 256, "every request in flight has its own sequence number")

        await device.setScript(MockDevice.standard)
        for request in await device.takeHeld().reversed() {
            await device.push(MockDevice.response(to: request, payload: MockDevice.standardAnswer(to: request)))
        }
        let results = await outcome.value
        XCTAssertEqual(results.count, 300)
        for (index, result) in results {
            switch result {
            case .success(let answer): XCTAssertEqual(answer, "m\(index)")
            case .failure(let error): XCTFail("request \(index) failed: \(error)")
            }
        }
        let sent = await device.requests.count
        XCTAssertEqual(sent, 300)
        let collisions = await device.heldSequenceCollisions
        XCTAssertEqual(collisions, 0)
        let statistics = await client.statistics
        XCTAssertEqual(statistics.requests, 300)
        XCTAssertEqual(statistics.responses, 300)
        XCTAssertEqual(statistics.totalDiscarded, 0)
        await client.close()
    }

    func testManyConcurrentRequestsAnsweredImmediately() async throws {
        let device = MockDevice()
        let client = makeClient(device, timeout: .seconds(10))
        let results = await sendConcurrently(client, count: 600).value
        XCTAssertEqual(results.count, 600)
        for (index, result) in results {
            XCTAssertEqual(try? result.get(), "m\(index)")
        }
        await client.close()
    }

    func testClosingFailsRequestsWaitingForASequenceNumber() async throws {
        let device = MockDevice { _, _ in .hold }
        // The clock never moves: only the close can end the requests.
        let client = makeClient(device, timeout: .seconds(10), clock: ManualClock())
        let outcome = sendConcurrently(client, count: 260)
        await assertHeld(device, 256)
        try await Task.sleep(for: .milliseconds(20))
        await client.close()
        let ended = await outcomeWhileTheClockStands(of: outcome)
        let results = try XCTUnwrap(ended).get()
        XCTAssertEqual(results.count, 260)
        for (index, result) in results {
            guard case .failure(let error) = result else { return XCTFail("request \(index) succeeded") }
            XCTAssertEqual(error.transportError?.kind, .closed, "request \(index): \(error)")
        }
        let sent = await device.requests.count
        XCTAssertEqual(sent, 256)
    }
}
