import CBOR

/// The file system group's upload (docs/protocol/file-system.md §9.2) as a ``ChunkedUploadTarget``: ``FileUploadChunk``
/// requests for one file. The upload carries no hash (`sha` is ignored). The device answers a
/// wrong offset with the error `FS_MGMT_ERR_FILE_OFFSET_NOT_VALID` (11) and the offset it expects
/// as `len`: that answer rewinds the upload to `len` (offset 0 starts over).
public struct FileUploadTarget: ChunkedUploadTarget {
    /// The file's absolute path on the device.
    public var name: String

    /// Creates the target.
    public init(name: String) { self.name = name }

    /// The first chunk may be empty (an empty file).
    public var minimumFirstChunkLength: Int { 0 }

    public func command(offset: UInt64, data: [UInt8], isFirst: Bool, totalLength: UInt64, sha: [UInt8]?) -> FileUploadChunk {
        FileUploadChunk(name: name, offset: offset, data: data, length: isFirst ? totalLength : nil)
    }

    public func overhead(offset: UInt64, dataLength: Int, isFirst: Bool, totalLength: UInt64, sha: [UInt8]?) -> Int {
        FileUploadChunk.overhead(name: name, offset: offset, dataLength: dataLength, length: isFirst ? totalLength : nil)
    }

    public func acknowledgement(of response: FileUploadChunk.Response) -> UploadAcknowledgement {
        UploadAcknowledgement(offset: response.offset)
    }

    /// `FILE_OFFSET_NOT_VALID` with `len` (in SMP v1 its translated `rc` with `len`): a rewind to `len`.
    public func acknowledgement(ofError error: SMPDeviceError, payload: CBORMap) -> UploadAcknowledgement? {
        guard let expected = payload["len"]?.uint64Value else { return nil }
        switch error {
        case .groupError(.fs(.fileOffsetNotValid)):
            return UploadAcknowledgement(offset: expected)
        case .returnCode:
            return UploadAcknowledgement(offset: expected)
        default:
            return nil
        }
    }
}
