/// The flash and boot state of one image: its two slots and what the bootloader does next.
struct SimulatedImage: Sendable, Hashable {
    /// What the secondary slot is marked for.
    enum NextBoot: Sendable, Hashable {
        case none, test, permanent
    }

    /// The bytes written to each slot (primary, secondary); empty = erased.
    var slots: [[UInt8]] = [[], []]
    /// The secondary's mark.
    var next = NextBoot.none
    /// Whether the running (primary) image is confirmed; false after a test swap (REVERT).
    var confirmed = true

    /// The parsed image of a slot, listed only with a SHA-256 TLV.
    func header(slot: Int) -> SimulatedImageHeader? {
        SimulatedImageHeader(slots[slot]).flatMap { $0.hash == nil ? nil : $0 }
    }

    /// Whether the device runs an unconfirmed test image whose revert target is the secondary.
    var isReverting: Bool { !confirmed }
}
