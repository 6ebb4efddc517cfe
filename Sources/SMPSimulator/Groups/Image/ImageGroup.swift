import CBOR
import SMP

/// The image management group (1) of Zephyr's img_mgmt over MCUboot (§4, §17): two slots per
/// image in memory, state read and write (test, confirm), upload, erase and slot info, and the
/// bootloader's swap, revert or overwrite at each device reset.
public struct ImageGroup: SimulatedGroup {
    public var group: SMPGroup { .image }

    /// The configuration the group was built with.
    public let configuration: SimulatedImageConfiguration
    var images: [SimulatedImage]
    var upload: SimulatedUpload?

    /// Creates the group; each primary slot holds the configuration's initial image, confirmed.
    public init(configuration: SimulatedImageConfiguration = SimulatedImageConfiguration()) {
        self.configuration = configuration
        images = (0..<configuration.imageCount).map { image in
            SimulatedImage(slots: [configuration.initialImage(image), []])
        }
    }

    /// The bytes written to a slot (image, slot within the image); empty when erased.
    public func contents(image: Int, slot: Int) -> [UInt8] {
        images.indices.contains(image) && (0...1).contains(slot) ? images[image].slots[slot] : []
    }

    public func implements(command: UInt8) -> Bool {
        [ImageCommandID.state, ImageCommandID.upload, ImageCommandID.erase, ImageCommandID.slotInfo].contains(command)
    }

    public mutating func handle(
        _ request: SimulatedRequest, context: inout SimulatedDeviceContext
    ) throws(SimulatedError) -> CBORMap {
        switch (request.command, request.operation) {
        case (ImageCommandID.state, .read): return stateList()
        case (ImageCommandID.state, .write): return try writeState(request, mode: context.configuration.bootloaderMode)
        case (ImageCommandID.upload, .write): return try receiveChunk(request)
        case (ImageCommandID.erase, .write): return try erase(request)
        case (ImageCommandID.slotInfo, .read): return slotInfo()
        default: throw .notSupported
        }
    }

    /// The state list (§4.2): every slot holding an image with a SHA-256 TLV, with its flags.
    func stateList() -> CBORMap {
        var entries: [CBOR] = []
        for (number, image) in images.enumerated() {
            for slot in 0...1 {
                guard let header = image.header(slot: slot) else { continue }
                var entry = CBORMap()
                if images.count > 1 { entry["image"] = .integer(number) }
                entry["slot"] = .integer(slot)
                entry["version"] = .text(header.versionString)
                entry["hash"] = .bytes(header.hash ?? [])
                entry["bootable"] = .bool(header.bootable)
                entry["pending"] = .bool(slot == 1 && image.next != .none)
                entry["confirmed"] = .bool(slot == 0 ? image.confirmed : image.isReverting)
                entry["active"] = .bool(slot == 0)
                entry["permanent"] = .bool(slot == 1 && image.next == .permanent)
                entries.append(.map(entry))
            }
        }
        return ["images": .array(entries), "splitStatus": 0]
    }

    /// Erase (cmd 5): the absolute slot (default 1); the running slot and a revert target are in use.
    private mutating func erase(_ request: SimulatedRequest) throws(SimulatedError) -> CBORMap {
        let absolute = try request.fields(["slot": .unsigned]).unsigned("slot") ?? 1
        guard absolute < UInt64(images.count * 2) else { throw .groupError(.image, ImageGroupError.invalidSlot) }
        let (image, slot) = (Int(absolute / 2), Int(absolute % 2))
        if slot == 0 || images[image].isReverting {
            throw .groupError(.image, ImageGroupError.noFreeSlot)
        }
        images[image].slots[1] = []
        images[image].next = .none
        upload = nil
        return [:]
    }

    /// Slot info (cmd 6): both slots of each image; the secondary is the upload target.
    private func slotInfo() -> CBORMap {
        let size = CBOR.integer(configuration.slotSize)
        return ["images": .array(images.indices.map { image in
            .map(["image": .integer(image), "slots": [
                ["slot": 0, "size": size],
                ["slot": 1, "size": size, "upload_image_id": .integer(image)],
            ]])
        })]
    }
}
