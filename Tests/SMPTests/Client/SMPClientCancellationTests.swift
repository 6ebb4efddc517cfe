import CBOR
import SMPTestSupport
import XCTest
@testable import SMP

/// Each client runs on a ``ManualClock`` that never moves: a request can end only by the
/// cancellation the test makes, never by its timeout or back-off.
final class SMPClientCancellationTests: XCTestCase {
    private let clock = ManualClock()

    private func outcome(of task: Task<String, any Error>, file: StaticString = #filePath, line: UInt = #line) async -> Result<String, SMPError>? {
        switch await outcomeWhileTheClockStands(of: task, file: file, line: line) {
        case .success(let value)?: return .success(value)
        case .failure(let error as SMPError)?: return .failure(error)
        case .failure(let error)?:
            XCTFail("unexpected error \(error)", file: file, line: line)
            return nil
        case nil: return nil
        }
    }

    func testCancellingTheCallingTaskCancelsTheRequest() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(5), clock: clock)
        let task = Task { try await client.send(OSEcho("never")) }
        await assertHeld(device, 1)
        task.cancel()
        let result = await outcome(of: task)
        guard case .failure(let error)? = result else { return XCTFail("expected a failure, got \(String(describing: result))") }
        XCTAssertTrue(error.isCancellation, "\(error)")
        XCTAssertTrue(error.description.hasSuffix("cancelled"), error.description)

        // The late answer is dropped, and the client goes on working.
        for request in await device.takeHeld() {
            await device.push(MockDevice.response(to: request, payload: ["r": "never"]))
        }
        await device.setScript(MockDevice.standard)
        let answer = try await client.send(OSEcho("next"))
        XCTAssertEqual(answer, "next")
        let statistics = await client.statistics
        XCTAssertEqual(statistics.discarded, [.unmatchedSequence: 1])
        await client.close()
    }

    func testAnAlreadyCancelledTaskDoesNotWait() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(5), clock: clock)
        let gate = AsyncStream<Void>.makeStream()
        let task = Task {
            for await _ in gate.stream {}
            return try await client.send(OSEcho("late"))
        }
        task.cancel()
        gate.continuation.finish()
        let result = await outcome(of: task)
        guard case .failure(let error)? = result else { return XCTFail("expected a failure") }
        XCTAssertTrue(error.isCancellation, "\(error)")
        let count = await device.requests.count
        XCTAssertEqual(count, 0, "a request cancelled before it was sent is not sent")
        await client.close()
    }

    func testCancellingDuringBusyBackOff() async throws {
        let device = MockDevice { _, _ in .answer(["rc": 10]) }
        let client = makeClient(device, timeout: .seconds(5), busyRetries: 3, busyBackoff: .seconds(7), clock: clock)
        let task = Task { try await client.send(OSEcho("busy")) }
        await assertReceived(device, 1)
        try await clock.sleeper(at: .seconds(7))
        task.cancel()
        let result = await outcome(of: task)
        guard case .failure(let error)? = result else { return XCTFail("expected a failure") }
        XCTAssertTrue(error.isCancellation, "\(error)")
        let count = await device.requests.count
        XCTAssertEqual(count, 1)
        await client.close()
    }

    func testCancellingARequestThatWaitsForASequenceNumber() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(10), clock: clock)
        let inFlight = (0..<256).map { index in Task { try await client.send(OSEcho("f\(index)")) } }
        await assertHeld(device, 256)
        let waiting = Task { try await client.send(OSEcho("waiting")) }
        try await Task.sleep(for: .milliseconds(20))
        waiting.cancel()
        let result = await outcome(of: waiting)
        guard case .failure(let error)? = result else { return XCTFail("expected a failure") }
        XCTAssertTrue(error.isCancellation, "\(error)")
        let count = await device.requests.count
        XCTAssertEqual(count, 256, "the cancelled request was never sent")

        // The requests in flight are unaffected.
        for request in await device.takeHeld() {
            await device.push(MockDevice.response(to: request, payload: ["r": request.payload["d"]!]))
        }
        for (index, task) in inFlight.enumerated() {
            let answer = try await task.value
            XCTAssertEqual(answer, "f\(index)")
        }
        await client.close()
    }

    func testAnotherWaiterGoesAheadAfterOneIsCancelled() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(10), clock: clock)
        let inFlight = (0..<256).map { index in Task { try await client.send(OSEcho("f\(index)")) } }
        await assertHeld(device, 256)
        let cancelled = Task { try await client.send(OSEcho("cancelled")) }
        try await Task.sleep(for: .milliseconds(10))
        let patient = Task { try await client.send(OSEcho("patient")) }
        try await Task.sleep(for: .milliseconds(10))
        cancelled.cancel()
        let cancelledResult = await outcome(of: cancelled)
        guard case .failure(let error)? = cancelledResult else { return XCTFail("expected a failure") }
        XCTAssertTrue(error.isCancellation, "\(error)")

        await device.setScript(MockDevice.standard)
        let first = await device.takeHeld()[0]
        await device.push(MockDevice.response(to: first, payload: ["r": first.payload["d"]!]))
        let answer = try await patient.value
        XCTAssertEqual(answer, "patient")
        let texts = await device.requests.map { $0.payload["d"]?.stringValue }
        XCTAssertFalse(texts.contains("cancelled"))
        for task in inFlight { task.cancel() }
        await client.close()
    }
}
