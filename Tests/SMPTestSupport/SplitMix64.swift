/// A small deterministic random number generator (SplitMix64), so that generated tests repeat.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in 0..<bound (bound > 0).
    public mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }

    /// True with probability 1/n.
    public mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }

    /// One of the elements (non-empty).
    public mutating func pick<T>(_ elements: [T]) -> T { elements[below(elements.count)] }
}
