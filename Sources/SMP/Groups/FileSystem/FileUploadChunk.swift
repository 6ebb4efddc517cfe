import CBOR

/// One chunk of a file upload (file system command 0, write; docs/protocol/file-system.md §9.2).
///
/// The chunk at offset 0 carries the file's total length and makes the device truncate (or
/// create) the file; later chunks carry only `off` and `data`. The device answers with the next
/// offset it expects. An offset other than the expected one is answered with the error
/// `FS_MGMT_ERR_FILE_OFFSET_NOT_VALID` (11) and, in the same map, the expected offset as `len`
/// (see ``FileUploadTarget``). The payload is a map with the keys `off`, `data`, `name`, `len`.
public struct FileUploadChunk: SMPCommand {
    /// The device's answer: the next offset it expects.
    public struct Response: Sendable, Hashable {
        /// Bytes written so far.
        public var offset: UInt64

        /// Creates a response.
        public init(offset: UInt64) { self.offset = offset }
    }

    /// The file's absolute path on the device.
    public var name: String
    /// Offset of `data` in the file.
    public var offset: UInt64
    /// The chunk's bytes.
    public var data: [UInt8]
    /// The file's total length (give it with the chunk at offset 0).
    public var length: UInt64?

    /// Creates a chunk.
    public init(name: String, offset: UInt64, data: [UInt8], length: UInt64? = nil) {
        self.name = name
        self.offset = offset
        self.data = data
        self.length = length
    }

    public var request: SMPRequest {
        SMPRequest(
            group: .fileSystem, command: FileSystemCommandID.file, operation: .write, payload: payload, isRetrySafe: true,
            name: "fs upload")
    }

    private var payload: CBORMap {
        var map: CBORMap = ["off": .unsigned(offset), "data": .bytes(data), "name": .text(name)]
        if let length { map.append(key: "len", value: .unsigned(length)) }
        return map
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> Response {
        Response(offset: try payload.unsigned("off"))
    }

    /// The bytes a chunk with these fields and `dataLength` bytes of data takes besides the data
    /// (SMP header included).
    public static func overhead(name: String, offset: UInt64, dataLength: Int, length: UInt64? = nil) -> Int {
        ChunkOverhead.bytes(emptyPayload: FileUploadChunk(name: name, offset: offset, data: [], length: length).payload, dataLength: dataLength)
    }
}
