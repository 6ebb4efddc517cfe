import CBOR

/// What a chunked upload writes to: how one chunk request is built, how large its envelope is, and
/// what the device's answer says. The image upload is one target (``ImageUploadTarget``); file
/// and SUIT uploads follow the same offset-driven protocol with their own requests.
public protocol ChunkedUploadTarget: Sendable {
    /// The chunk request.
    associatedtype Command: SMPCommand

    /// The fewest data bytes the first chunk must carry (the image group needs the 32-byte header).
    var minimumFirstChunkLength: Int { get }

    /// Whether the device resumes an interrupted upload when a first chunk carries the same `sha`
    /// (the image group). Elsewhere a first chunk answered beyond its end is a stale upload.
    var resumesBySHA: Bool { get }

    /// The request carrying `data` at `offset`; the first chunk (`isFirst`) also carries the total
    /// length and, when given, the SHA-256 of the whole file.
    func command(offset: UInt64, data: [UInt8], isFirst: Bool, totalLength: UInt64, sha: [UInt8]?) -> Command

    /// The exact size of such a request besides its data bytes (header included), for a chunk of
    /// `dataLength` bytes.
    func overhead(offset: UInt64, dataLength: Int, isFirst: Bool, totalLength: UInt64, sha: [UInt8]?) -> Int

    /// What the device's answer acknowledges.
    func acknowledgement(of response: Command.Response) -> UploadAcknowledgement

    /// What an error answer to a chunk acknowledges, when the target's protocol reports a wrong
    /// offset as an error that names the expected one (a file upload's `FILE_OFFSET_NOT_VALID`
    /// with `len`); nil fails the upload with the error.
    func acknowledgement(ofError error: SMPDeviceError, payload: CBORMap) -> UploadAcknowledgement?
}

extension ChunkedUploadTarget {
    /// No: an upload that starts at offset 0 starts afresh.
    public var resumesBySHA: Bool { false }

    /// None: every error answer fails the upload.
    public func acknowledgement(ofError error: SMPDeviceError, payload: CBORMap) -> UploadAcknowledgement? { nil }
}

/// A device's answer to a chunk: the offset it expects next and, on the last chunk, whether its
/// hash of the written data matches the `sha` of the first chunk.
public struct UploadAcknowledgement: Sendable, Hashable {
    /// The next offset the device expects (everything before it is stored).
    public var offset: UInt64
    /// The device's verdict on the whole upload, when it checks.
    public var match: Bool?

    /// Creates an acknowledgement.
    public init(offset: UInt64, match: Bool? = nil) {
        self.offset = offset
        self.match = match
    }
}
