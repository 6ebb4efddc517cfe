import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs an operation that Ctrl-C (SIGINT), SIGTERM or SIGHUP (a closed terminal or SSH session)
/// cancels cleanly instead of killing the process.
enum Interruption {
    /// Whether the current task runs inside ``cancellingOnSignals(_:)``.
    @TaskLocal private static var isHandling = false

    /// Runs `body`; on SIGINT, SIGTERM or SIGHUP its task is cancelled and `body` is expected to wind
    /// down. A second signal ends the process at once (exit 130), for when winding down takes
    /// too long.
    ///
    /// `body` starts once the signal sources are registered: a signal from then on is caught, so
    /// a program that says it is ready from within `body` (`simulate`'s announcement) can be
    /// stopped as soon as it has said so.
    ///
    /// Inside another such call (one device's upload within a many-device run) `body` just runs:
    /// the outer call's signal cancels it with the rest, and the signal handlers stay the outer's.
    static func cancellingOnSignals<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        if isHandling { return try await body() }
        let catcher = SignalCatcher()
        let signals = [SIGINT, SIGTERM, SIGHUP]
        let sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { catcher.caught() }
            return source
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let unregistered = Countdown(sources.count) { continuation.resume() }
            for source in sources {
                source.setRegistrationHandler { unregistered.tick() }
                source.resume()
            }
        }
        defer {
            for source in sources { source.cancel() }
            for number in signals { signal(number, SIG_DFL) }
        }
        let task = Task { try await $isHandling.withValue(true) { try await body() } }
        catcher.started { task.cancel() }
        return try await task.value
    }
}

/// Where the signal sources report: the first signal cancels the task (at once if it has
/// started, else when it starts), the second ends the process.
private final class SignalCatcher: Sendable {
    private struct State {
        var cancel: (@Sendable () -> Void)?
        var signalled = false
    }

    private let state = Mutex(State())

    func caught() {
        let cancel: (@Sendable () -> Void)? = state.withLock { state in
            if state.signalled { exit(130) }
            state.signalled = true
            return state.cancel
        }
        cancel?()
    }

    func started(cancel: @escaping @Sendable () -> Void) {
        let signalled = state.withLock { state in
            state.cancel = cancel
            return state.signalled
        }
        if signalled { cancel() }
    }
}

/// Calls `done` once, when ``tick()`` has been called `count` times.
private final class Countdown: Sendable {
    private let remaining: Mutex<Int>
    private let done: @Sendable () -> Void

    init(_ count: Int, done: @escaping @Sendable () -> Void) {
        remaining = Mutex(count)
        self.done = done
    }

    func tick() {
        if remaining.withLock({ count in
            count -= 1
            return count == 0
        }) {
            done()
        }
    }
}
