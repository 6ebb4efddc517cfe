import Dispatch
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
    /// Inside another such call (one device's upload within a many-device run) `body` just runs:
    /// the outer call's signal cancels it with the rest, and the signal handlers stay the outer's.
    static func cancellingOnSignals<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        if isHandling { return try await body() }
        let task = Task { try await $isHandling.withValue(true) { try await body() } }
        let signals = [SIGINT, SIGTERM, SIGHUP]
        let sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if task.isCancelled { exit(130) }
                task.cancel()
            }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
            for number in signals { signal(number, SIG_DFL) }
        }
        return try await task.value
    }
}
