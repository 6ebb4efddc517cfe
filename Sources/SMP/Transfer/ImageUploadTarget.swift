/// The image group's upload (docs/protocol/images.md §4.3) as a ``ChunkedUploadTarget``: ``ImageUploadChunk`` requests
/// for one image number, optionally refusing anything but a newer version.
public struct ImageUploadTarget: ChunkedUploadTarget {
    /// The image number (nil sends no `image`, which means 0).
    public var image: UInt64?
    /// Send `upgrade: true`: the device refuses the image unless it is newer than the running one.
    public var upgrade: Bool

    /// Creates the target.
    public init(image: UInt64? = nil, upgrade: Bool = false) {
        self.image = image
        self.upgrade = upgrade
    }

    /// The first chunk carries the whole 32-byte MCUboot header.
    public var minimumFirstChunkLength: Int { 32 }

    /// Yes: img_mgmt answers a first chunk whose `sha` matches the upload it holds with that
    /// upload's offset.
    public var resumesBySHA: Bool { true }

    public func command(offset: UInt64, data: [UInt8], isFirst: Bool, totalLength: UInt64, sha: [UInt8]?) -> ImageUploadChunk {
        isFirst
            ? ImageUploadChunk(image: image, offset: offset, data: data, length: totalLength, sha: sha, upgrade: upgrade)
            : ImageUploadChunk(offset: offset, data: data)
    }

    public func overhead(offset: UInt64, dataLength: Int, isFirst: Bool, totalLength: UInt64, sha: [UInt8]?) -> Int {
        isFirst
            ? ImageUploadChunk.overhead(image: image, offset: offset, dataLength: dataLength, length: totalLength, sha: sha, upgrade: upgrade)
            : ImageUploadChunk.overhead(offset: offset, dataLength: dataLength)
    }

    public func acknowledgement(of response: ImageUploadChunk.Response) -> UploadAcknowledgement {
        UploadAcknowledgement(offset: response.offset, match: response.match)
    }
}
