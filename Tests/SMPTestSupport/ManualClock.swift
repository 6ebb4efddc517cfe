import Foundation
import XCTest

/// A clock whose time moves only when the test moves it (``advance(by:)``): a sleeper wakes once
/// the time passes its deadline, or throws when its task is cancelled.
///
/// Given to the code under test in place of `ContinuousClock`, it turns "ended before its
/// deadline" into a question with one answer: the test moves the time past the deadline only
/// after the event that should end the operation, so an operation that waited for its deadline
/// instead ends with a timeout, whatever the speed of the machine.
public final class ManualClock: Clock, @unchecked Sendable {
    /// A point in the clock's time: how far it is from the clock's start.
    public struct Instant: InstantProtocol {
        /// The time since the clock's start.
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        public func duration(to other: Instant) -> Duration { other.offset - offset }

        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// The code under test never slept on the clock while the test waited for it to.
    public struct NeverSlept: Error, CustomStringConvertible {
        public let description: String
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Sleeper] = []
    private var cancelled: Set<Int> = []
    private var nextID = 0

    /// A clock at its start.
    public init() {}

    public var now: Instant { lock.withLock { current } }

    public var minimumResolution: Duration { .zero }

    /// How far the time has been moved so far.
    public var elapsed: Duration { now.offset }

    /// The deadlines of the sleepers waiting now, as times since the clock's start, earliest first.
    public var deadlines: [Duration] { lock.withLock { sleepers.map(\.deadline.offset).sorted() } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = lock.withLock {
            defer { nextID += 1 }
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = lock.withLock {
                    if cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= current { return .success(()) }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper: Sleeper? = lock.withLock {
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else {
                    cancelled.insert(id)
                    return nil
                }
                return sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the time on by `duration` and wakes every sleeper whose deadline it reached, earliest
    /// first.
    public func advance(by duration: Duration) {
        let woken: [Sleeper] = lock.withLock {
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.deadline <= current }.sorted { $0.deadline < $1.deadline }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Moves the time to `offset` since the clock's start (no further when it is there already).
    public func advance(to offset: Duration) {
        advance(by: max(.zero, offset - elapsed))
    }

    /// Waits until a sleeper waits for exactly `deadline` (a time since the clock's start), so
    /// that the time the test moves next reaches it. Throws ``NeverSlept`` when none does within
    /// `patience` seconds of real time (a hang guard: the code under test did not take that
    /// deadline from this clock).
    public func sleeper(at deadline: Duration, patience: TimeInterval = 10) async throws {
        let limit = Date().addingTimeInterval(patience)
        while !lock.withLock({ sleepers.contains { $0.deadline.offset == deadline } }) {
            guard Date() < limit else {
                throw NeverSlept(description: "nothing slept on the manual clock until \(deadline) within \(patience) s "
                    + "(sleepers until \(deadlines)): the code under test did not take that deadline from it")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}

/// What `task` ended with, awaited while the test's clock stands still: nothing of the code under
/// test that runs on that clock can have timed out, so the outcome is that of the event the test
/// caused. A hang guard, not a measurement: when the task has not ended after `patience` seconds
/// of real time, the test fails and the task is cancelled (and left behind, should it ignore that).
public func outcomeWhileTheClockStands<T: Sendable, Failure: Error>(
    of task: Task<T, Failure>, patience: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line
) async -> Result<T, Failure>? {
    let outcome: Result<T, Failure>? = await withCheckedContinuation { continuation in
        let first = FirstOutcome(continuation)
        Task { first.deliver(.some(await task.result)) }
        Task {
            try? await Task.sleep(for: .seconds(patience))
            if first.deliver(nil) { task.cancel() }
        }
    }
    guard let outcome else {
        XCTFail("the task did not end within \(patience) s while the clock stood still: it waits for a deadline", file: file, line: line)
        return nil
    }
    return outcome
}

/// Resumes a continuation with the first of two outcomes.
private final class FirstOutcome<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Never>?

    init(_ continuation: CheckedContinuation<Value, Never>) { self.continuation = continuation }

    /// Resumes with `value` unless an outcome came first; true when this one was first.
    @discardableResult
    func deliver(_ value: Value) -> Bool {
        guard let continuation = lock.withLock({ () -> CheckedContinuation<Value, Never>? in
            defer { self.continuation = nil }
            return self.continuation
        }) else { return false }
        continuation.resume(returning: value)
        return true
    }
}
