import SMP

extension SimulatedImage {
    /// What MCUboot does with this image at boot, in `mode`; the mark is used up.
    ///
    /// - Overwrite-only: a marked image is copied over the primary slot, which is then erased.
    /// - Direct-XIP: the slot with the highest version runs (a tie keeps the active slot).
    /// - Swap modes and direct-XIP with revert: a marked image runs next (unconfirmed after a
    ///   test); an unconfirmed image is reverted. Swap modes exchange the slots' contents,
    ///   direct-XIP runs from the other slot in place.
    ///
    /// With `checkingHash`, a marked image whose SHA-256 TLV is not the hash of its content is
    /// not booted: its slot is erased and the running image stays (MCUboot's validation).
    mutating func boot(mode: MCUbootMode, checkingHash: Bool = false) {
        defer { next = .none }
        if checkingHash && next != .none && !SimulatedImageHeader.hashMatchesContent(slots[inactive]) {
            slots[inactive] = []
            return
        }
        switch mode {
        case .overwriteOnly:
            if next != .none {
                slots = [slots[1], []]
                confirmed = true
            }
        case .directXIP:
            if inactiveIsNewer { active = inactive }
        case .ramLoad, .singleSlotRAMLoad:
            bootHighestVersion()
        default:
            switch next {
            case .none:
                guard isReverting else { return }
                runOtherSlot(inPlace: mode.isDirectXIP)
                confirmed = true
            case let mark:
                runOtherSlot(inPlace: mode.isDirectXIP)
                confirmed = mark == .permanent
            }
        }
    }

    /// Runs the inactive slot's image: from where it is (direct-XIP) or swapped into slot 0.
    private mutating func runOtherSlot(inPlace: Bool) {
        if inPlace { active = inactive } else { slots.swapAt(0, 1) }
    }
}

extension MCUbootMode {
    /// Whether images run in place from either slot (direct-XIP, with or without revert).
    var isDirectXIP: Bool { self == .directXIP || self == .directXIPWithRevert }

    /// Whether MCUboot copies the highest valid version of either slot to RAM (RAM-load, or its
    /// single-slot variant).
    var isRAMLoad: Bool { self == .ramLoad || self == .singleSlotRAMLoad }
}

extension SimulatedImage {
    /// RAM-load: the bootable image of the highest version (major, minor, revision) in either
    /// slot runs; a tie, or no image at all in the other slot, keeps the active slot.
    mutating func bootHighestVersion() {
        confirmed = true
        guard let candidate = header(slot: inactive), candidate.bootable else { return }
        guard let running = header(slot: active), running.bootable else {
            active = inactive
            return
        }
        if candidate.comparableVersion > running.comparableVersion { active = inactive }
    }
}
