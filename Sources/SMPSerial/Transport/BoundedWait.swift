import Synchronization

/// Runs `operation` for at most `limit`: when time is up (or the caller is cancelled) it is
/// cancelled and the wait ends at once, even if the operation ignores cancellation. A value it
/// produces too late goes to `discardLate` (to close what it opened).
func withTimeLimit<Value: Sendable>(
    _ limit: Duration, timeoutError: @escaping @Sendable () -> any Error,
    discardLate: @escaping @Sendable (Value) async -> Void = { _ in },
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let outcome = FirstOutcome<Value>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            outcome.install(continuation)
            let work = Task {
                do {
                    let value = try await operation()
                    if !outcome.resolve(.success(value)) { await discardLate(value) }
                } catch {
                    outcome.resolve(.failure(error))
                }
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                if !Task.isCancelled { outcome.resolve(.failure(timeoutError())) }
                work.cancel()
            }
            outcome.onResolve { work.cancel(); timer.cancel() }
        }
    } onCancel: {
        outcome.resolve(.failure(CancellationError()))
    }
}

/// The first of several competing results; later ones are ignored.
private final class FirstOutcome<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var early: Result<Value, any Error>?
        var cleanup: (@Sendable () -> Void)?
        var resolved = false
    }

    private let state = Mutex(State())

    func install(_ continuation: CheckedContinuation<Value, any Error>) {
        let early: Result<Value, any Error>? = state.withLock { state in
            guard let early = state.early else {
                state.continuation = continuation
                return nil
            }
            return early
        }
        if let early { continuation.resume(with: early) }
    }

    func onResolve(_ cleanup: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.resolved { return true }
            state.cleanup = cleanup
            return false
        }
        if runNow { cleanup() }
    }

    /// Settles the outcome unless it already is; returns whether this result was the one taken.
    @discardableResult
    func resolve(_ result: Result<Value, any Error>) -> Bool {
        let (taken, continuation, cleanup): (Bool, CheckedContinuation<Value, any Error>?, (@Sendable () -> Void)?) = state.withLock { state in
            guard !state.resolved else { return (false, nil, nil) }
            state.resolved = true
            if state.continuation == nil { state.early = result }
            defer { state.continuation = nil; state.cleanup = nil }
            return (true, state.continuation, state.cleanup)
        }
        continuation?.resume(with: result)
        cleanup?()
        return taken
    }
}
