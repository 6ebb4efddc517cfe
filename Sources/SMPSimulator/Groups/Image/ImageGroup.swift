import CBOR
import SMP

/// The image management group (1) of Zephyr's img_mgmt over MCUboot (docs/protocol/images.md §4, docs/protocol/upgrade.md §17): two slots per
/// image in memory, state read and write (test, confirm), upload, erase and slot info, and the
/// bootloader's swap, revert, overwrite or direct-XIP slot choice at each device reset.
public struct ImageGroup: SimulatedGroup {
    public var group: SMPGroup { .image }

    /// The configuration the group was built with.
    public let configuration: SimulatedImageConfiguration
    var images: [SimulatedImage]
    var upload: SimulatedUpload?
    /// MCUboot serial recovery's upload state (its static variables: they survive a new first
    /// chunk's errors, not a reset).
    var recoveryUpload = SimulatedRecoveryUpload()
    /// Whether every upload is refused at its first chunk (``DeviceFault/rejectImage``).
    var rejectsUploads = false
    /// Uploads received to their last byte, for ``DeviceFault/dieMidUpload(fraction:)``.
    var completedUploads = 0

    /// Creates the group; each primary slot holds the configuration's initial image, confirmed.
    public init(configuration: SimulatedImageConfiguration = SimulatedImageConfiguration()) {
        self.configuration = configuration
        images = (0..<configuration.imageCount).map { image in
            SimulatedImage(slots: [configuration.initialImage(image), []])
        }
    }

    /// The bytes written to a physical slot (image, slot 0 or 1 within the image); empty when erased.
    public func contents(image: Int, slot: Int) -> [UInt8] {
        images.indices.contains(image) && (0...1).contains(slot) ? images[image].slots[slot] : []
    }

    /// The slot an image runs from: 0, or 1 after a direct-XIP boot from the second slot
    /// (0 for an image the group does not have).
    public func activeSlot(image: Int) -> Int {
        images.indices.contains(image) ? images[image].active : 0
    }

    public func implements(command: UInt8) -> Bool {
        [ImageCommandID.state, ImageCommandID.upload, ImageCommandID.erase, ImageCommandID.slotInfo].contains(command)
    }

    public mutating func handle(
        _ request: SimulatedRequest, context: inout SimulatedDeviceContext
    ) throws(SimulatedError) -> CBORMap {
        let mode = context.configuration.bootloaderMode
        switch (request.command, request.operation) {
        case (ImageCommandID.state, .read): return stateList(mode: mode)
        case (ImageCommandID.state, .write):
            // Zephyr's img_mgmt has no state write with RAM-load MCUboot (the fixture answers
            // MGMT_ERR_ENOTSUP): the highest valid version boots, no mark is read.
            guard !mode.isRAMLoad else { throw .notSupported }
            return try writeState(request, mode: mode)
        case (ImageCommandID.upload, .write): return try receiveChunk(request, context: &context)
        case (ImageCommandID.erase, .write): return try erase(request, context: &context)
        case (ImageCommandID.slotInfo, .read): return slotInfo(mode: mode)
        default: throw .notSupported
        }
    }

    /// The state list (docs/protocol/images.md §4.2): every slot holding an image with a SHA-256 TLV, with its flags.
    /// In plain direct-XIP the inactive slot is pending and permanent when it holds a higher
    /// version, which boots next. The application of a firmware-loader device lists slot 0 only.
    func stateList(mode: MCUbootMode) -> CBORMap {
        var entries: [CBOR] = []
        for (number, image) in images.enumerated() {
            let newerBootsNext = mode == .directXIP && image.inactiveIsNewer
            for slot in listedSlots(image: number, mode: mode) {
                guard let header = image.header(slot: slot) else { continue }
                let active = slot == image.active
                var entry = CBORMap()
                if images.count > 1 { entry["image"] = .integer(number) }
                entry["slot"] = .integer(slot)
                entry["version"] = .text(header.versionString)
                entry["hash"] = .bytes(header.hash ?? [])
                entry["bootable"] = .bool(header.bootable)
                entry["pending"] = .bool(!active && (image.next != .none || newerBootsNext))
                entry["confirmed"] = .bool(active ? image.confirmed : image.isReverting)
                entry["active"] = .bool(active)
                entry["permanent"] = .bool(!active && (image.next == .permanent || newerBootsNext))
                entries.append(.map(entry))
            }
        }
        return ["images": .array(entries), "splitStatus": 0]
    }

    /// Erase (cmd 5): the absolute slot (default: image 0's inactive slot) costs a whole slot
    /// erase; the running slot and a revert target are in use, and so is every slot where the
    /// application of a firmware-loader device answers.
    private mutating func erase(_ request: SimulatedRequest, context: inout SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        let absolute = try request.fields(["slot": .unsigned]).unsigned("slot") ?? UInt64(images[0].inactive)
        guard absolute < UInt64(images.count * 2) else { throw .groupError(ImageGroupError.invalidSlot) }
        let (image, slot) = (Int(absolute / 2), Int(absolute % 2))
        if slot == images[image].active || images[image].isReverting || refusesWrites(image: image, mode: context.configuration.bootloaderMode) {
            throw .groupError(ImageGroupError.noFreeSlot)
        }
        context.spend(configuration.flashTiming.eraseTime(bytes: configuration.slotSize))
        images[image].slots[slot] = []
        images[image].next = .none
        upload = nil
        return [:]
    }

    /// Slot info (cmd 6): both slots of each image; the inactive one is the upload target (none
    /// where the application of a firmware-loader device answers).
    private func slotInfo(mode: MCUbootMode) -> CBORMap {
        let size = CBOR.integer(configuration.slotSize)
        return ["images": .array(images.indices.map { image in
            .map(["image": .integer(image), "slots": .array((0...1).map { slot in
                var entry: CBORMap = ["slot": .integer(slot), "size": size]
                if slot == images[image].inactive && !refusesWrites(image: image, mode: mode) { entry["upload_image_id"] = .integer(image) }
                return .map(entry)
            })])
        })]
    }
}
