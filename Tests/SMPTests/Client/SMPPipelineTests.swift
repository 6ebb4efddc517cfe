import CBOR
import XCTest
@testable import SMP

/// ``SMPPipeline``: requests leave in the order they are sent, outcomes come as answers arrive,
/// and ending the pipeline ends what is still in flight.
final class SMPPipelineTests: XCTestCase {
    func testRequestsLeaveInOrderAndOutcomesComeAsAnswered() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(10))
        let count = 24
        let answering = Task {
            await assertHeld(device, count)
            let held = await device.takeHeld()
            XCTAssertEqual(held.map { $0.payload["d"]?.stringValue }, (0..<count).map { "m\($0)" }, "requests leave in the order they were sent")
            // Answered last first.
            for request in held.reversed() {
                await device.push(MockDevice.response(to: request, payload: MockDevice.standardAnswer(to: request)))
            }
        }
        let outcomes = await client.withPipeline(of: (Int, String?).self) { pipeline in
            for index in 0..<count {
                await pipeline.send(OSEcho("m\(index)")) { (index, try? $0.get()) }
                let queued = await pipeline.client.statistics.requests
                XCTAssertEqual(queued, index + 1, "send returns once the client has queued the request")
            }
            var outcomes: [(Int, String?)] = []
            while let outcome = await pipeline.next() { outcomes.append(outcome) }
            return outcomes
        }
        await answering.value
        XCTAssertEqual(outcomes.map(\.0), Array((0..<count).reversed()), "outcomes come in the order the answers arrive")
        XCTAssertEqual(outcomes.map(\.1), (0..<count).reversed().map { "m\($0)" })
        await client.close()
    }

    func testEndingThePipelineCancelsWhatIsInFlight() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(30))
        let start = ContinuousClock.now
        await client.withPipeline(of: Bool.self) { pipeline in
            for index in 0..<3 {
                await pipeline.exchange(OSEcho("m\(index)").request) { (try? $0.get()) != nil }
            }
        }
        await assertHeld(device, 3)
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5), "the unanswered requests were cancelled, not waited for")
        let pending = await client.pending.count
        XCTAssertEqual(pending, 0, "no request is left pending")
        await client.close()
    }

    func testAnAddedOperationComesOutWithTheAnswers() async throws {
        let device = MockDevice()
        let client = makeClient(device)
        let outcomes = await client.withPipeline(of: String.self) { pipeline in
            pipeline.add {
                try? await Task.sleep(for: .milliseconds(200))
                return "later"
            }
            await pipeline.send(OSEcho("first")) { (try? $0.get()) ?? "failed" }
            var outcomes: [String] = []
            while let outcome = await pipeline.next() { outcomes.append(outcome) }
            return outcomes
        }
        XCTAssertEqual(outcomes, ["first", "later"])
        await client.close()
    }
}
