/// Damage a ``SecureDFUTarget`` does to the data it receives, to test a client's recovery:
/// writes lost on the line, bytes corrupted (an object whose CRC differs), and the link
/// dropped in the middle of an object. Data writes are numbered from 1, in the order they
/// arrive, over the target's life.
public struct SecureDFUTargetFaults: Sendable, Hashable {
    /// Seeds the random choices, so that a run can be repeated.
    public var seed: UInt64
    /// The fraction of data writes lost at random (never seen by the bootloader).
    public var lostWriteFraction: Double
    /// The fraction of data writes with one byte corrupted at random.
    public var corruptedWriteFraction: Double
    /// Data writes lost, by number.
    public var lostWrites: Set<Int>
    /// Data writes with a byte corrupted, by number.
    public var corruptedWrites: Set<Int>
    /// Drop the link (once) as soon as this many data bytes have arrived in all.
    public var disconnectAfterDataBytes: Int?

    /// No faults, unless given.
    public init(
        seed: UInt64 = 1, lostWriteFraction: Double = 0, corruptedWriteFraction: Double = 0, lostWrites: Set<Int> = [],
        corruptedWrites: Set<Int> = [], disconnectAfterDataBytes: Int? = nil
    ) {
        self.seed = seed
        self.lostWriteFraction = lostWriteFraction
        self.corruptedWriteFraction = corruptedWriteFraction
        self.lostWrites = lostWrites
        self.corruptedWrites = corruptedWrites
        self.disconnectAfterDataBytes = disconnectAfterDataBytes
    }
}
