import CBOR
import SMPTestSupport
import XCTest
@testable import SMP

/// ``SMPPipeline``: requests leave in the order they are sent, outcomes come as answers arrive,
/// and ending the pipeline ends what is still in flight.
final class SMPPipelineTests: XCTestCase {
    func testRequestsLeaveInOrderAndOutcomesComeAsAnswered() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(10))
        let count = 24
        let collected = Collected()
        let answering = Task {
            await assertHeld(device, count)
            let held = await device.takeHeld()
            XCTAssertEqual(held.map { $0.payload["d"]?.stringValue }, (0..<count).map { "m\($0)" }, "requests leave in the order they were sent")
            // Answered last first, one at a time: each outcome must come out while the requests
            // sent before it are still unanswered.
            for (answered, request) in held.reversed().enumerated() {
                await device.push(MockDevice.response(to: request, payload: MockDevice.standardAnswer(to: request)))
                let arrived = await collected.wait(for: answered + 1)
                XCTAssertTrue(arrived, "the outcome of answer \(answered + 1) did not come out")
            }
        }
        await client.withPipeline(of: (Int, String?).self) { pipeline in
            for index in 0..<count {
                await pipeline.send(OSEcho("m\(index)")) { (index, try? $0.get()) }
                let queued = await pipeline.client.statistics.requests
                XCTAssertEqual(queued, index + 1, "send returns once the client has queued the request")
            }
            while let outcome = await pipeline.next() { await collected.append(outcome) }
        }
        await answering.value
        let outcomes = await collected.outcomes
        XCTAssertEqual(outcomes.map(\.0), Array((0..<count).reversed()), "outcomes come in the order the answers arrive")
        XCTAssertEqual(outcomes.map(\.1), (0..<count).reversed().map { "m\($0)" })
        await client.close()
    }

    func testEndingThePipelineCancelsWhatIsInFlight() async throws {
        let device = MockDevice { _, _ in .hold }
        // The clock never moves: the pipeline ends only if it cancels the unanswered requests.
        let client = makeClient(device, timeout: .seconds(30), clock: ManualClock())
        let ended = Task {
            await client.withPipeline(of: Bool.self) { pipeline in
                for index in 0..<3 {
                    await pipeline.exchange(OSEcho("m\(index)").request) { (try? $0.get()) != nil }
                }
            }
        }
        let outcome = await outcomeWhileTheClockStands(of: ended)
        XCTAssertNotNil(outcome, "the unanswered requests were cancelled, not waited for")
        await assertHeld(device, 3)
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

/// The outcomes a pipeline gave so far, for a test that answers one request at a time.
private actor Collected {
    private(set) var outcomes: [(Int, String?)] = []

    func append(_ outcome: (Int, String?)) { outcomes.append(outcome) }

    /// Whether `count` outcomes came within five seconds.
    func wait(for count: Int) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while outcomes.count < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(2))
        }
        return outcomes.count >= count
    }
}
