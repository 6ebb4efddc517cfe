import CBOR
import SMP

extension ImageGroup {
    /// State write (cmd 0): test (`confirm` false) or confirm an image by hash, or confirm the
    /// running image without one (docs/protocol/images.md §4.2 rules). Answers the new state list. Plain direct-XIP has
    /// no state write (rc 8).
    mutating func writeState(_ request: SimulatedRequest, mode: MCUbootMode) throws(SimulatedError) -> CBORMap {
        guard mode != .directXIP else { throw .notSupported }
        let fields = try request.fields(["hash": .bytes, "confirm": .bool])
        let confirm = fields.bool("confirm") ?? false
        guard let hash = fields.bytes("hash") else {
            guard confirm else { throw .groupError(ImageGroupError.invalidHash) }
            images[0].confirmed = true
            return stateList(mode: mode)
        }
        guard hash.count == 32 else { throw .groupError(ImageGroupError.invalidHash) }
        guard let (image, slot) = locate(hash) else { throw .groupError(ImageGroupError.hashNotFound) }
        if slot == images[image].active {
            guard confirm else { throw .groupError(ImageGroupError.imageSettingTestToActiveDenied) }
            images[image].confirmed = true
            return stateList(mode: mode)
        }
        // Overwrite-only has no revert: a test is a one-way copy too.
        let next: SimulatedImage.NextBoot = confirm || mode == .overwriteOnly ? .permanent : .test
        let current = images[image]
        if current.isReverting || (current.next != .none && current.next != next) {
            throw .groupError(ImageGroupError.imageAlreadyPending)
        }
        images[image].next = next
        return stateList(mode: mode)
    }

    /// The image and slot that hold an image with this hash.
    private func locate(_ hash: [UInt8]) -> (image: Int, slot: Int)? {
        for image in images.indices {
            for slot in 0...1 where images[image].header(slot: slot)?.hash == hash { return (image, slot) }
        }
        return nil
    }

    /// The bootloader at boot (``SimulatedImage/boot(mode:)``): swap, revert, overwrite,
    /// direct-XIP or RAM-load slot choice, after the hash check when the configuration asks for it
    /// (RAM-load always validates: a slot whose image fails is erased). The upload state is lost.
    public mutating func deviceDidReset(context: SimulatedDeviceContext) {
        upload = nil
        let mode = context.configuration.bootloaderMode
        let checksHash = context.configuration.images?.checksImageHash ?? false
        if mode.isRAMLoad { eraseInvalidImages() }
        for index in images.indices { images[index].boot(mode: mode, checkingHash: checksHash) }
    }
}
