import CBOR

/// What a SUIT upload writes: the envelope (command 2), a resource the device asked for
/// (command 4), or a DFU cache partition (command 5).
public enum SUITUploadKind: Sendable, Hashable, CustomStringConvertible {
    /// The envelope; `deferInstall` (sent at offset 0) holds processing back until
    /// ``SUITProcessEnvelope`` triggers it, for when caches were uploaded first.
    case envelope(deferInstall: Bool)
    /// A resource for the stream session the device opened (`stream_session_id` in every chunk).
    case resource(sessionID: UInt64)
    /// A cache partition's raw image (`target_id` in every chunk).
    case cache(partition: UInt64)

    /// The command the chunks go with.
    public var command: UInt8 {
        switch self {
        case .envelope: return SUITCommandID.envelopeUpload
        case .resource: return SUITCommandID.resourceUpload
        case .cache: return SUITCommandID.cacheUpload
        }
    }

    public var description: String {
        switch self {
        case .envelope: return "suit envelope upload"
        case .resource: return "suit resource upload"
        case .cache: return "suit cache upload"
        }
    }
}

/// One chunk of a SUIT upload (SUIT commands 2, 4 and 5, write; docs/protocol/suit.md §14).
///
/// The first chunk (offset 0) carries the total length; the resource and cache uploads carry
/// their session or partition in every chunk. The device answers `{"rc": 0, "off": next}`; a
/// chunk at an offset it does not expect is answered `rc` 1 **with** the offset it expects, which
/// ``SUITUploadTarget`` reads as a rewind (`SMPClient.send` throws it as a device error).
/// Chunks are retry-safe: a repeated chunk is answered with the expected offset.
public struct SUITUploadChunk: SMPCommand {
    /// The device's answer.
    public struct Response: Sendable, Hashable {
        /// The next offset the device expects: always continue from here.
        public var offset: UInt64
        /// The `rc` the device sent along (0, or 1 with a wrong offset).
        public var rc: Int64?

        /// Creates a response.
        public init(offset: UInt64, rc: Int64? = nil) {
            self.offset = offset
            self.rc = rc
        }
    }

    /// What is uploaded.
    public var kind: SUITUploadKind
    /// Offset of `data` in the file.
    public var offset: UInt64
    /// The chunk's bytes.
    public var data: [UInt8]
    /// The total length (first chunk).
    public var length: UInt64?

    /// The timeout of a first chunk: the device erases the DFU partition before it answers.
    public static let firstChunkTimeout: Duration = .seconds(40)

    /// Creates a chunk; give `length` with the first one.
    public init(kind: SUITUploadKind, offset: UInt64, data: [UInt8], length: UInt64? = nil) {
        self.kind = kind
        self.offset = offset
        self.data = data
        self.length = length
    }

    public var request: SMPRequest {
        SMPRequest(
            group: .suit, command: kind.command, operation: .write, payload: payload, isRetrySafe: true,
            timeout: offset == 0 ? Self.firstChunkTimeout : nil, name: kind.description)
    }

    private var payload: CBORMap {
        var map = CBORMap()
        switch kind {
        case .envelope: break
        case .resource(let session): map.append(key: "stream_session_id", value: .unsigned(session))
        case .cache(let partition): map.append(key: "target_id", value: .unsigned(partition))
        }
        if let length { map.append(key: "len", value: .unsigned(length)) }
        map.append(key: "off", value: .unsigned(offset))
        map.append(key: "data", value: .bytes(data))
        if case .envelope(true) = kind, offset == 0 { map.append(key: "defer_install", value: .bool(true)) }
        return map
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> Response {
        Response(offset: try payload.unsigned("off"), rc: try payload.optionalInteger("rc"))
    }

    /// The bytes a chunk with these fields and `dataLength` bytes of data takes besides the data:
    /// the SMP header and every CBOR byte of the payload but the data itself.
    public static func overhead(kind: SUITUploadKind, offset: UInt64, dataLength: Int, length: UInt64?) -> Int {
        ChunkOverhead.bytes(emptyPayload: SUITUploadChunk(kind: kind, offset: offset, data: [], length: length).payload, dataLength: dataLength)
    }
}
