import CBOR

/// One chunk of an image upload (image command 1, write; docs/protocol/images.md §4.3).
///
/// The first chunk (offset 0) carries the image's total length and, ideally, the SHA-256 of the
/// whole file (for resume and the final `match`); later chunks carry only `off` and `data`. The
/// payload is a definite-length map with the keys in the order `image`, `len`, `off`, `sha`,
/// `data`, `upgrade` (those that apply). Chunks are retry-safe: a repeated chunk is answered
/// with the offset the device expects.
public struct ImageUploadChunk: SMPCommand {
    /// The device's answer.
    public struct Response: Sendable, Hashable {
        /// The next offset the device expects: always continue from here.
        public var offset: UInt64
        /// On the last chunk, whether the written data matches `sha` (when the device checks).
        public var match: Bool?
        /// The legacy `rc` (0) some devices add.
        public var rc: Int64?

        /// Creates a response.
        public init(offset: UInt64, match: Bool? = nil, rc: Int64? = nil) {
            self.offset = offset
            self.match = match
            self.rc = rc
        }
    }

    /// Target image number (first chunk only; nil sends no `image`, which means 0).
    public var image: UInt64?
    /// Offset of `data` in the file.
    public var offset: UInt64
    /// The chunk's bytes.
    public var data: [UInt8]
    /// Total file length (first chunk).
    public var length: UInt64?
    /// SHA-256 of the whole file, up to 32 bytes (first chunk).
    public var sha: [UInt8]?
    /// Refuse the image unless its version is newer than the running one (first chunk).
    public var upgrade: Bool

    /// The timeout of a first chunk: the device erases the slot before answering.
    public static let firstChunkTimeout: Duration = .seconds(30)

    /// Creates a chunk; `image`, `length`, `sha` and `upgrade` are sent only by the caller's choice
    /// (give them for the first chunk).
    public init(image: UInt64? = nil, offset: UInt64, data: [UInt8], length: UInt64? = nil, sha: [UInt8]? = nil, upgrade: Bool = false) {
        self.image = image
        self.offset = offset
        self.data = data
        self.length = length
        self.sha = sha
        self.upgrade = upgrade
    }

    public var request: SMPRequest {
        SMPRequest(
            group: .image, command: ImageCommandID.upload, operation: .write, payload: payload, isRetrySafe: true,
            timeout: offset == 0 ? Self.firstChunkTimeout : nil, name: "image upload")
    }

    private var payload: CBORMap {
        var map = CBORMap()
        if let image { map.append(key: "image", value: .unsigned(image)) }
        if let length { map.append(key: "len", value: .unsigned(length)) }
        map.append(key: "off", value: .unsigned(offset))
        if let sha { map.append(key: "sha", value: .bytes(sha)) }
        map.append(key: "data", value: .bytes(data))
        if upgrade { map.append(key: "upgrade", value: .bool(true)) }
        return map
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> Response {
        Response(offset: try payload.unsigned("off"), match: try payload.optionalBool("match"), rc: try payload.optionalInteger("rc"))
    }

    /// The bytes a chunk with these fields and `dataLength` bytes of data takes besides the data:
    /// the 8-byte SMP header and every CBOR byte of the payload but the data itself. The largest
    /// chunk for a message size limit `maxPacket` is `maxPacket − overhead`, recomputed per chunk
    /// since the widths of `off` and of the data length vary.
    public static func overhead(
        image: UInt64? = nil, offset: UInt64, dataLength: Int, length: UInt64? = nil, sha: [UInt8]? = nil, upgrade: Bool = false
    ) -> Int {
        let empty = ImageUploadChunk(image: image, offset: offset, data: [], length: length, sha: sha, upgrade: upgrade)
        return ChunkOverhead.bytes(emptyPayload: empty.payload, dataLength: dataLength)
    }
}
