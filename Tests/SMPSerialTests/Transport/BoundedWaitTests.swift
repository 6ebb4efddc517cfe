@testable import SMPSerial
import Synchronization
import XCTest

private struct TooLate: Error {}

/// The time limit around relocation: it ends the wait even when the operation does not listen.
final class BoundedWaitTests: XCTestCase {
    func testTheValueWhenInTime() async throws {
        let value = try await withTimeLimit(.seconds(5), timeoutError: { TooLate() }) { 42 }
        XCTAssertEqual(value, 42)
    }

    func testTheTimeoutErrorWhenTheOperationIgnoresCancellation() async throws {
        let discarded = Mutex<[Int]>([])
        // The body ends after 300 ms: a wait for it would return 7 instead of the limit's error.
        do {
            _ = try await withTimeLimit(
                .milliseconds(50), timeoutError: { TooLate() }, discardLate: { value in discarded.withLock { $0.append(value) } }
            ) {
                // Deaf to cancellation: sleeps on regardless, then produces a value.
                let until = ContinuousClock.now + .milliseconds(300)
                while ContinuousClock.now < until { try? await Task.sleep(for: .milliseconds(10)) }
                return 7
            }
            XCTFail("expected the time limit")
        } catch {
            XCTAssertTrue(error is TooLate)
        }
        try await Task.sleep(for: .milliseconds(400))
        XCTAssertEqual(discarded.withLock { $0 }, [7], "the late value was handed over to be closed")
    }

    func testCancellingTheCallerEndsTheWait() async throws {
        let waiting = Task {
            try await withTimeLimit(.seconds(30), timeoutError: { TooLate() }) {
                try await Task.sleep(for: .seconds(30))
                return 1
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        do {
            _ = try await waiting.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError)
        }
    }

    func testAnErrorOfTheOperationPassesThrough() async {
        do {
            _ = try await withTimeLimit(.seconds(5), timeoutError: { TooLate() }) { () async throws -> Int in
                throw CancellationError()
            }
            XCTFail("expected the error")
        } catch {
            XCTAssertTrue(error is CancellationError)
        }
    }
}
