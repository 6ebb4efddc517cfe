/// Damage a ``LegacyDFUTarget`` does to the firmware packets it receives, to test a client's
/// detection of lost packets. Firmware packets are numbered from 1, in the order they arrive,
/// over the target's life.
public struct LegacyDFUTargetFaults: Sendable, Hashable {
    /// Seeds the random choices, so that a run can be repeated.
    public var seed: UInt64
    /// The fraction of firmware packets lost at random (never seen by the bootloader).
    public var lostPacketFraction: Double
    /// Firmware packets lost, by number.
    public var lostPackets: Set<Int>

    /// No faults, unless given.
    public init(seed: UInt64 = 1, lostPacketFraction: Double = 0, lostPackets: Set<Int> = []) {
        self.seed = seed
        self.lostPacketFraction = lostPacketFraction
        self.lostPackets = lostPackets
    }
}
