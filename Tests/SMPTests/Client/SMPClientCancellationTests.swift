import CBOR
import XCTest
@testable import SMP

final class SMPClientCancellationTests: XCTestCase {
    private func outcome(of task: Task<String, any Error>) async -> Result<String, SMPError>? {
        do {
            return .success(try await task.value)
        } catch let error as SMPError {
            return .failure(error)
        } catch {
            XCTFail("unexpected error \(error)")
            return nil
        }
    }

    func testCancellingTheCallingTaskCancelsTheRequest() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(5))
        let task = Task { try await client.send(OSEcho("never")) }
        await assertHeld(device, 1)
        var result: Result<String, SMPError>?
        let duration = await elapsed {
            task.cancel()
            result = await outcome(of: task)
        }
        XCTAssertLessThan(duration, .seconds(1))
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
        let client = makeClient(device, timeout: .seconds(5))
        let gate = AsyncStream<Void>.makeStream()
        let task = Task {
            for await _ in gate.stream {}
            return try await client.send(OSEcho("late"))
        }
        task.cancel()
        gate.continuation.finish()
        var result: Result<String, SMPError>?
        let duration = await elapsed { result = await outcome(of: task) }
        XCTAssertLessThan(duration, .seconds(1))
        guard case .failure(let error)? = result else { return XCTFail("expected a failure") }
        XCTAssertTrue(error.isCancellation, "\(error)")
        let count = await device.requests.count
        XCTAssertEqual(count, 0, "a request cancelled before it was sent is not sent")
        await client.close()
    }

    func testCancellingDuringBusyBackOff() async throws {
        let device = MockDevice { _, _ in .answer(["rc": 10]) }
        let client = makeClient(device, timeout: .seconds(5), busyRetries: 3, busyBackoff: .seconds(5))
        let task = Task { try await client.send(OSEcho("busy")) }
        await assertReceived(device, 1)
        try await Task.sleep(for: .milliseconds(20))
        var result: Result<String, SMPError>?
        let duration = await elapsed {
            task.cancel()
            result = await outcome(of: task)
        }
        XCTAssertLessThan(duration, .seconds(1))
        guard case .failure(let error)? = result else { return XCTFail("expected a failure") }
        XCTAssertTrue(error.isCancellation, "\(error)")
        let count = await device.requests.count
        XCTAssertEqual(count, 1)
        await client.close()
    }

    func testCancellingARequestThatWaitsForASequenceNumber() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(10))
        let inFlight = (0..<256).map { index in Task { try await client.send(OSEcho("f\(index)")) } }
        await assertHeld(device, 256)
        let waiting = Task { try await client.send(OSEcho("waiting")) }
        try await Task.sleep(for: .milliseconds(20))
        var result: Result<String, SMPError>?
        let duration = await elapsed {
            waiting.cancel()
            result = await outcome(of: waiting)
        }
        XCTAssertLessThan(duration, .seconds(2), "a cancelled request must not wait for a free sequence number")
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
        let client = makeClient(device, timeout: .seconds(10))
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
