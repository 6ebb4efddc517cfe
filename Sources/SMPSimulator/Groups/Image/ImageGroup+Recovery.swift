import CBOR
import SMP

/// MCUboot serial recovery's upload state (`bs_upload`'s static variables).
struct SimulatedRecoveryUpload: Sendable, Hashable {
    /// The image the last first chunk named.
    var image = 0
    /// The length the last first chunk announced.
    var length = 0
    /// The next expected offset.
    var offset = 0
}

extension ImageGroup {
    /// Whether a slot holds an image MCUboot validates: a header with the SHA-256 TLV that is
    /// the hash of its content, or the image the device was built with.
    func holdsValidImage(image: Int, slot: Int) -> Bool {
        guard images[image].header(slot: slot) != nil else { return false }
        let bytes = images[image].slots[slot]
        return SimulatedImageHeader.hashMatchesContent(bytes) || (slot == 0 && bytes == configuration.initialImage(image))
    }

    /// Image list in recovery (`bs_list`): each slot with a valid image, `image` only with
    /// several images, the flags only with image state, then `slot`, `hash` (with image hashes)
    /// and `version`. No `splitStatus`.
    func recoveryList(_ recovery: MCUbootRecoveryConfiguration) -> CBORMap {
        var entries: [CBOR] = []
        for (number, image) in images.enumerated() {
            for slot in 0...1 where holdsValidImage(image: number, slot: slot) {
                guard let header = image.header(slot: slot) else { continue }
                var entry = CBORMap()
                if images.count > 1 { entry["image"] = .integer(number) }
                if recovery.imageState {
                    let primary = slot == 0
                    let marked = image.next != .none
                    if header.bootable { entry["bootable"] = true }
                    if primary ? (marked || !image.isReverting) : image.isReverting { entry["confirmed"] = true }
                    if primary && !marked { entry["active"] = true }
                    if !primary && marked { entry["pending"] = true }
                    if !primary && image.next == .permanent { entry["permanent"] = true }
                }
                entry["slot"] = .integer(slot)
                if recovery.imageHash { entry["hash"] = .bytes(header.hash ?? []) }
                entry["version"] = .text(header.versionString)
                entries.append(.map(entry))
            }
        }
        return ["images": .array(entries)]
    }

    /// Image state write in recovery (`bs_set`, with image state): `hash` of a valid image (or
    /// none with a single image) marks the image's secondary slot for test (`confirm` false) or
    /// for good; answers the list, or `rc` EINVAL for a bad hash, ENOENT for an unknown one.
    mutating func recoverySetState(_ request: SimulatedRequest, _ recovery: MCUbootRecoveryConfiguration) -> CBORMap {
        guard let fields = try? request.fields(["confirm": .bool, "hash": .bytes]) else { return Self.rc(.invalidValue) }
        let hash = fields.bytes("hash") ?? []
        guard hash.count == 32 || (hash.isEmpty && images.count == 1) else { return Self.rc(.invalidValue) }
        var target = 0
        if !hash.isEmpty {
            let found = images.indices.first { image in
                (0...1).contains { holdsValidImage(image: image, slot: $0) && images[image].header(slot: $0)?.hash == hash }
            }
            guard let found else { return Self.rc(.noEntry) }
            target = found
        }
        guard images[target].header(slot: 1) != nil else { return Self.rc(.invalidValue) }
        images[target].next = fields.bool("confirm") == true ? .permanent : .test
        return recoveryList(recovery)
    }

    /// Image upload in recovery (`bs_upload`): always to the primary slot of the image the
    /// offset-0 chunk names; a first chunk restarts the upload and erases the slot, a chunk at
    /// another offset than the expected one is answered with it, data is stored in whole write
    /// units unless the chunk ends the image. Answers `rc` and, on success, `off`.
    mutating func recoveryUpload(
        _ request: SimulatedRequest, _ recovery: MCUbootRecoveryConfiguration, spend: (Duration) -> Void
    ) -> CBORMap {
        guard let fields = try? request.fields(["image": .unsigned, "data": .bytes, "len": .unsigned, "off": .unsigned]),
              let offset = fields.unsigned("off"), let data = fields.bytes("data")
        else { return Self.rc(.invalidValue) }
        var state = recoveryUpload
        if offset == 0 {
            state.image = Int(exactly: fields.unsigned("image") ?? 0) ?? Int.max
        }
        guard images.indices.contains(state.image) else {
            recoveryUpload = state
            return Self.rc(.invalidValue)
        }
        if offset == 0 {
            state.offset = 0
            guard let length = fields.unsigned("len"), length <= UInt64(configuration.slotSize) else {
                recoveryUpload = state
                return Self.rc(.invalidValue)
            }
            spend(configuration.flashTiming.eraseTime(bytes: configuration.slotSize))
            // The erase takes the primary slot's trailer with it: no revert to come. A mark in the
            // secondary slot's trailer stays and is acted on at the next boot.
            images[state.image].slots[0] = []
            images[state.image].confirmed = true
            state.length = Int(length)
        } else if offset != UInt64(state.offset) {
            return ["rc": 0, "off": .integer(state.offset)]
        } else if state.offset + data.count > state.length {
            return Self.rc(.invalidValue)
        }
        let remainder = data.count % recovery.writeAlignment
        let whole = data.count - remainder
        let kept = state.offset + data.count < state.length ? whole : data.count
        images[state.image].slots[0] += data.prefix(kept)
        spend(configuration.flashTiming.writeTime(bytes: kept))
        state.offset += kept
        recoveryUpload = state
        return ["rc": 0, "off": .integer(state.offset)]
    }

    /// Slot info in recovery (`bs_slot_info`): both slots of each image with their size; uploads
    /// go to the primary slot.
    func recoverySlotInfo() -> CBORMap {
        let size = CBOR.integer(configuration.slotSize)
        return ["images": .array(images.indices.map { image in
            .map(["image": .integer(image), "slots": .array((0...1).map { slot in
                var entry: CBORMap = ["slot": .integer(slot), "size": size]
                if slot == 0 { entry["upload_image_id"] = .integer(image) }
                return .map(entry)
            })])
        })]
    }

    /// The boot that follows serial recovery: the upload state is lost, then MCUboot boots as
    /// after any reset (``SimulatedImage/boot(mode:checkingHash:)``); a slot recovery wrote
    /// that holds no valid image is not booted (RAM-load and direct-XIP take the other slot).
    /// Returns whether every image has a valid image to run.
    mutating func bootAfterRecovery(mode: MCUbootMode, checkingHash: Bool) -> Bool {
        recoveryUpload = SimulatedRecoveryUpload()
        upload = nil
        if mode.isRAMLoad { eraseInvalidImages() }
        for index in images.indices {
            images[index].boot(mode: mode, checkingHash: checkingHash)
            if !holdsValidImage(image: index, slot: images[index].active), holdsValidImage(image: index, slot: images[index].inactive),
               mode.isRAMLoad || mode.isDirectXIP {
                images[index].active = images[index].inactive
            }
        }
        return images.indices.allSatisfy { holdsValidImage(image: $0, slot: images[$0].active) }
    }

    /// RAM-load MCUboot validates each slot before it picks one and erases a slot whose image
    /// (a header with the image magic) fails.
    mutating func eraseInvalidImages() {
        for image in images.indices {
            for slot in 0...1 where SimulatedImageHeader(images[image].slots[slot]) != nil && !holdsValidImage(image: image, slot: slot) {
                images[image].slots[slot] = []
            }
        }
    }

    /// Entering recovery: the application's upload state is lost, the slots stay as they are.
    mutating func enterRecovery() {
        upload = nil
        recoveryUpload = SimulatedRecoveryUpload()
    }

    /// `{"rc": code}`.
    static func rc(_ code: SMPReturnCode) -> CBORMap { ["rc": .int(code.rawValue)] }
}
