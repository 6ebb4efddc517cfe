/// What a device's partial acknowledgements tell about the unit it writes flash in.
///
/// A device such as MCUboot's serial recovery writes a chunk only in whole flash-write units and
/// acknowledges the aligned offset: the chunk's tail that does not fill a unit is dropped, so the
/// answer falls short of the chunk's end by less than one unit. Assuming the unit is a power of
/// two (flash write blocks are), every power of two that divides every such offset and exceeds
/// every such shortfall is consistent with the answers; the largest is a multiple of the true unit,
/// so chunk ends cut on it are never truncated again. It is capped at an eighth of the chunk
/// length (at most 12.5 % of a chunk is given up for alignment; a larger true unit only makes the
/// device truncate again, which is still progress) and at 4096.
struct WriteAlignmentEstimate: Sendable, Hashable {
    /// The largest alignment ever assumed.
    static let maximum = 4096

    /// The largest power of two (≤ ``maximum``) dividing every partially acknowledged offset.
    private var divisor = Self.maximum
    /// The smallest power of two exceeding every shortfall seen.
    private var exceedingShortfall = 1
    /// The largest power of two not above an eighth of the longest chunk cut short.
    private var chunkCap = 1
    /// Partial acknowledgements seen.
    private(set) var samples = 0

    /// The alignment the answers so far call for (nil before any partial acknowledgement).
    var alignment: Int? {
        guard samples > 0 else { return nil }
        return min(divisor, max(exceedingShortfall, chunkCap))
    }

    /// Takes an answer of `offset` to a chunk from `start` to `end` (`start < offset < end`).
    mutating func learn(offset: UInt64, chunkStart start: UInt64, chunkEnd end: UInt64) {
        samples += 1
        divisor = min(divisor, 1 << min(offset.trailingZeroBitCount, Self.maximum.trailingZeroBitCount))
        exceedingShortfall = max(exceedingShortfall, Self.powerOfTwo(above: end - offset))
        chunkCap = max(chunkCap, Self.powerOfTwo(notAbove: (end - start) / 8))
    }

    /// The smallest power of two greater than `value` (capped at ``maximum``).
    static func powerOfTwo(above value: UInt64) -> Int {
        var power = 1
        while UInt64(power) <= value, power < maximum { power <<= 1 }
        return power
    }

    /// The largest power of two not above `value` (at least 1, at most ``maximum``).
    static func powerOfTwo(notAbove value: UInt64) -> Int {
        var power = 1
        while UInt64(power) * 2 <= value, power < maximum { power <<= 1 }
        return power
    }
}
