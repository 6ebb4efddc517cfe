import CBOR

/// The image-state list, the answer to a state read and to every state write (docs/protocol/images.md §4.2).
public struct ImageStateList: Sendable, Hashable {
    /// The slots that hold a listed image, for each image the lower slot first.
    public var images: [ImageSlotState]
    /// The top-level `splitStatus` (Zephyr always 0; absent in frugal lists and MCUboot).
    public var splitStatus: Int64?

    /// Creates a list.
    public init(images: [ImageSlotState], splitStatus: Int64? = nil) {
        self.images = images
        self.splitStatus = splitStatus
    }

    /// Reads a state response payload.
    init(decoding payload: CBORMap) throws(SMPResponseError) {
        var images: [ImageSlotState] = []
        for entry in try payload.maps("images") { images.append(try ImageSlotState(decoding: entry)) }
        self.init(images: images, splitStatus: try payload.optionalInteger("splitStatus"))
    }
}
