/// Paces one direction of a simulated UART: at `baudRate` with 8N1 framing, a byte takes 10 bit
/// times, so at most `baudRate / 10` bytes pass per second.
///
/// It keeps the time at which the line finishes sending what it has been given. When bytes
/// follow closely (the line never went idle) they queue behind the previous ones, so sleeping
/// late never adds up to a slower line; after a real pause the line starts again from now.
struct SerialLinePacer: Sendable {
    /// Bytes per second on the line.
    let bytesPerSecond: Double
    private var busyUntil: ContinuousClock.Instant?

    /// A pacer for `baudRate` (8N1).
    init(baudRate: Int) {
        bytesPerSecond = Double(max(1, baudRate)) / 10
    }

    /// How long `count` bytes occupy the line.
    func duration(of count: Int) -> Duration {
        .nanoseconds(Int64((Double(count) / bytesPerSecond * 1e9).rounded()))
    }

    /// Puts `count` bytes on the line at `now`; returns when their last bit has arrived.
    mutating func schedule(_ count: Int, at now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        // A gap shorter than this counts as continuous traffic: it is the time between reading
        // one chunk and the next, not an idle line.
        let continuity = Duration.milliseconds(1)
        let start = busyUntil.map { $0 + continuity >= now ? $0 : now } ?? now
        let end = start + duration(of: count)
        busyUntil = end
        return end
    }

    /// A read size that keeps the steps short (about 5 ms of traffic), between 16 and 4096 bytes.
    var chunkSize: Int {
        min(4096, max(16, Int(bytesPerSecond / 200)))
    }
}
