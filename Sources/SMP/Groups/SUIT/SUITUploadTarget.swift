import CBOR

/// A SUIT upload (envelope, resource or cache; docs/protocol/suit.md §14) as a ``ChunkedUploadTarget``.
///
/// SUIT uploads carry no `sha`: an upload starting at offset 0 always starts afresh, and a
/// wrong offset is answered `rc` 1 with the offset the device expects, which the uploader
/// resumes from.
public struct SUITUploadTarget: ChunkedUploadTarget {
    /// What the chunks write.
    public var kind: SUITUploadKind

    /// Creates the target.
    public init(kind: SUITUploadKind) { self.kind = kind }

    /// Any first chunk will do.
    public var minimumFirstChunkLength: Int { 1 }

    public func command(offset: UInt64, data: [UInt8], isFirst: Bool, totalLength: UInt64, sha: [UInt8]?) -> SUITUploadChunk {
        SUITUploadChunk(kind: kind, offset: offset, data: data, length: isFirst ? totalLength : nil)
    }

    public func overhead(offset: UInt64, dataLength: Int, isFirst: Bool, totalLength: UInt64, sha: [UInt8]?) -> Int {
        SUITUploadChunk.overhead(kind: kind, offset: offset, dataLength: dataLength, length: isFirst ? totalLength : nil)
    }

    public func acknowledgement(of response: SUITUploadChunk.Response) -> UploadAcknowledgement {
        UploadAcknowledgement(offset: response.offset)
    }

    /// A wrong-offset answer (`rc` ≠ 0 with `off`): a rewind to `off`.
    public func acknowledgement(ofError error: SMPDeviceError, payload: CBORMap) -> UploadAcknowledgement? {
        payload["off"]?.uint64Value.map { UploadAcknowledgement(offset: $0) }
    }
}
