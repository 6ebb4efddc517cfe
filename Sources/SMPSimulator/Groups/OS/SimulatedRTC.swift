import SMP

/// The virtual device's real-time clock: unset until written, then running with the device's uptime.
///
/// It survives resets, as an RTC with a backup supply does.
public struct SimulatedRTC: Sendable, Hashable {
    /// The time written last (milliseconds always set), or nil while the clock is unset.
    public private(set) var setTime: SMPDateTime?
    /// The device uptime when ``setTime`` was written (zero for the initial time).
    private var setAt: Duration = .zero

    /// A clock holding `initial`, or an unset clock.
    public init(initial: SMPDateTime?) {
        setTime = initial.map(Self.normalised)
    }

    /// Whether the clock was ever set.
    public var isSet: Bool { setTime != nil }

    /// The time now, given the device's uptime; nil while unset.
    public func read(uptime: Duration) -> SMPDateTime? {
        guard let setTime else { return nil }
        let elapsed = uptime - setAt
        let (seconds, attoseconds) = elapsed.components
        return Self.advance(setTime, milliseconds: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// Sets the clock.
    public mutating func write(_ time: SMPDateTime, uptime: Duration) {
        setTime = Self.normalised(time)
        setAt = uptime
    }

    private static func normalised(_ time: SMPDateTime) -> SMPDateTime {
        var copy = time
        copy.millisecond = copy.millisecond ?? 0
        copy.utcOffsetMinutes = nil
        return copy
    }

    /// `time` plus `milliseconds`, carrying into minutes, days, months and years.
    ///
    /// The carry beyond seconds is expressed as a zone offset and resolved by ``SMPDateTime/inUTC``,
    /// which already does civil-calendar arithmetic.
    static func advance(_ time: SMPDateTime, milliseconds: Int64) -> SMPDateTime {
        let total = Int64(time.second) * 1000 + Int64(time.millisecond ?? 0) + max(0, milliseconds)
        let carryMinutes = total / 60_000
        let rest = total % 60_000
        var shifted = time
        shifted.second = Int(rest / 1000)
        shifted.millisecond = Int(rest % 1000)
        shifted.utcOffsetMinutes = -Int(carryMinutes)
        var result = shifted.inUTC
        result.utcOffsetMinutes = nil
        return result
    }
}
