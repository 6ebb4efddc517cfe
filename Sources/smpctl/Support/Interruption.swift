import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Runs an operation that Ctrl-C (SIGINT) or SIGTERM cancels cleanly instead of killing the process.
enum Interruption {
    /// Runs `body`; on SIGINT or SIGTERM its task is cancelled and `body` is expected to wind
    /// down. A second signal ends the process at once (exit 130), for when winding down takes
    /// too long.
    static func cancellingOnSignals<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await body() }
        let sources = [SIGINT, SIGTERM].map { number in
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
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        return try await task.value
    }
}
