import CBOR

/// Slot information (image command 6, read): each image's slots and their sizes (docs/protocol/images.md §4.5).
public struct ImageSlotInfo: SMPCommand {
    /// One image and its slots.
    public struct Image: Sendable, Hashable {
        /// Image number.
        public var image: UInt64
        /// Its slots.
        public var slots: [Slot]
        /// The largest image the device accepts, when it reports one.
        public var maxImageSize: UInt64?

        /// Creates an entry.
        public init(image: UInt64, slots: [Slot], maxImageSize: UInt64? = nil) {
            self.image = image
            self.slots = slots
            self.maxImageSize = maxImageSize
        }
    }

    /// One slot of an image.
    public struct Slot: Sendable, Hashable {
        /// Slot within the image (0 or 1).
        public var slot: UInt64
        /// Slot (partition) size in bytes; nil when the device could not open it.
        public var size: UInt64?
        /// The value to send as `image` in an upload to reach this slot (non-active slots).
        public var uploadImageID: UInt64?
        /// The error the device met opening the slot, if any.
        public var rc: Int64?

        /// Creates an entry.
        public init(slot: UInt64, size: UInt64?, uploadImageID: UInt64? = nil, rc: Int64? = nil) {
            self.slot = slot
            self.size = size
            self.uploadImageID = uploadImageID
            self.rc = rc
        }
    }

    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .image, command: ImageCommandID.slotInfo, operation: .read, name: "image slot info")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> [Image] {
        var images: [Image] = []
        for entry in try payload.maps("images") {
            var slots: [Slot] = []
            for slot in try entry.maps("slots") {
                slots.append(Slot(
                    slot: try slot.unsigned("slot"), size: try slot.optionalUnsigned("size"),
                    uploadImageID: try slot.optionalUnsigned("upload_image_id"), rc: try slot.optionalInteger("rc")))
            }
            images.append(Image(image: try entry.unsigned("image"), slots: slots, maxImageSize: try entry.optionalUnsigned("max_image_size")))
        }
        return images
    }
}
