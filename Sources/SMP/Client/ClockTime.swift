/// The time of a clock as durations since a fixed start, so that deadlines taken from any
/// `Clock<Duration>` (the continuous clock, or a test's manual one) can be stored and compared.
///
/// A client keeps its deadlines, sweeps and back-offs on this; a test that gives the client a
/// clock of its own decides when time passes, and checks that a request ended before its
/// deadline without measuring how long anything took.
struct ClockTime: Sendable {
    /// The clock's time now, since the start.
    let now: @Sendable () -> Duration
    /// Suspends until the clock reaches a time since the start; throws when the task is cancelled.
    let sleepUntil: @Sendable (Duration) async throws -> Void

    /// The time of `clock`, starting now.
    init(_ clock: any Clock<Duration>) {
        self = Self.starting(clock)
    }

    private init(now: @escaping @Sendable () -> Duration, sleepUntil: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleepUntil = sleepUntil
    }

    private static func starting<C: Clock<Duration>>(_ clock: C) -> ClockTime {
        let start = clock.now
        return ClockTime(
            now: { start.duration(to: clock.now) },
            sleepUntil: { try await clock.sleep(until: start.advanced(by: $0), tolerance: nil) })
    }

    /// Suspends for `duration` of the clock's time.
    func sleep(for duration: Duration) async throws {
        try await sleepUntil(now() + duration)
    }
}
