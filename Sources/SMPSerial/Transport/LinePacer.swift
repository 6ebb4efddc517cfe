import SMP

/// Keeps the lines written to a device within a ``LinePacing``: remembers when the last `burst`
/// lines went out and says how long to wait before the next one, so that no span of `gap` holds
/// more than `burst` lines.
struct LinePacer: Sendable {
    /// When recent lines were written, oldest first (at most the burst).
    private var sent: [ContinuousClock.Instant] = []

    /// How long to wait, from `now`, before one more line may go out under `pacing`.
    func delay(before now: ContinuousClock.Instant, pacing: LinePacing) -> Duration {
        guard !pacing.isUnpaced, sent.count >= pacing.burst else { return .zero }
        let ready = sent[sent.count - pacing.burst] + pacing.gap
        return ready > now ? ready - now : .zero
    }

    /// Records a line written at `now`.
    mutating func record(_ now: ContinuousClock.Instant, pacing: LinePacing) {
        sent.append(now)
        let keep = max(1, pacing.burst)
        if sent.count > keep { sent.removeFirst(sent.count - keep) }
    }
}
