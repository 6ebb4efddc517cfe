/// Send times that keep a device's responses in the order it produced them, as from a device's
/// single transmit queue: a response never leaves before one produced earlier, so a delayed
/// response (busy flash, injected delay) holds back those behind it.
struct InOrderSchedule<Instant: Comparable & Sendable>: Sendable {
    private var latest: Instant?

    /// The send time of the next response, wanted at `earliest`.
    mutating func sendTime(earliest: Instant) -> Instant {
        let time = latest.map { max($0, earliest) } ?? earliest
        latest = time
        return time
    }
}
