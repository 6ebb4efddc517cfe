/// SplitMix64: a small, fast, seedable generator, so that fault injection is repeatable.
struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `fraction` (never for 0, always for 1).
    mutating func chance(_ fraction: Double) -> Bool {
        // Draw even when the fraction is 0 or 1, so that one fault's setting does not shift the
        // choices made for the others.
        let draw = Double(next() >> 11) / Double(1 << 53)
        return draw < fraction
    }
}
