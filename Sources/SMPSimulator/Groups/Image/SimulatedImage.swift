/// The flash and boot state of one image: its two slots, the one it runs from, and what the
/// bootloader does next.
struct SimulatedImage: Sendable, Hashable {
    /// What the inactive slot is marked for.
    enum NextBoot: Sendable, Hashable {
        case none, test, permanent
    }

    /// The bytes written to each physical slot (0, 1); empty = erased.
    var slots: [[UInt8]] = [[], []]
    /// The slot the device runs from: always 0 in swap and overwrite modes (the bootloader moves
    /// images into it), either slot in direct-XIP modes.
    var active = 0
    /// The inactive slot's mark.
    var next = NextBoot.none
    /// Whether the running (active) image is confirmed; false after a test boot (REVERT).
    var confirmed = true

    /// The slot uploads go to and the bootloader may boot next.
    var inactive: Int { 1 - active }

    /// The parsed image of a slot, listed only with a SHA-256 TLV.
    func header(slot: Int) -> SimulatedImageHeader? {
        SimulatedImageHeader(slots[slot]).flatMap { $0.hash == nil ? nil : $0 }
    }

    /// Whether the device runs an unconfirmed test image whose revert target is the inactive slot.
    var isReverting: Bool { !confirmed }

    /// Whether the inactive slot holds a bootable image of a higher version (major, minor,
    /// revision) than the active one: plain direct-XIP boots it next.
    var inactiveIsNewer: Bool {
        guard let candidate = header(slot: inactive), candidate.bootable else { return false }
        guard let running = header(slot: active) else { return true }
        return candidate.comparableVersion > running.comparableVersion
    }
}
