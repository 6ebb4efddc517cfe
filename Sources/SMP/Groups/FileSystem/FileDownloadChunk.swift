import CBOR

/// One chunk of a file download (file system command 0, read; docs/protocol/file-system.md §9.1): the device answers with the
/// bytes at `off`, as many as its `MCUMGR_GRP_FS_DL_CHUNK_SIZE` allows, and with the file's total
/// length when `off` is 0. Reads are retry-safe.
public struct FileDownloadChunk: SMPCommand {
    /// The device's answer.
    public struct Response: Sendable, Hashable {
        /// The offset of `data` (the requested offset).
        public var offset: UInt64
        /// The bytes at `offset`; empty at the end of the file.
        public var data: [UInt8]
        /// The file's total length (only in the answer to offset 0).
        public var length: UInt64?

        /// Creates a response.
        public init(offset: UInt64, data: [UInt8], length: UInt64? = nil) {
            self.offset = offset
            self.data = data
            self.length = length
        }
    }

    /// The file's absolute path on the device (`/lfs1/log.txt`).
    public var name: String
    /// Where to read.
    public var offset: UInt64

    /// Creates a request for the chunk of `name` at `offset`.
    public init(name: String, offset: UInt64) {
        self.name = name
        self.offset = offset
    }

    public var request: SMPRequest {
        SMPRequest(
            group: .fileSystem, command: FileSystemCommandID.file, operation: .read,
            payload: ["off": .unsigned(offset), "name": .text(name)], name: "fs download")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> Response {
        let data = try payload.field("data")
        guard let bytes = data.bytesValue else {
            throw SMPResponseError("field \"data\" should be a byte string but is \(data.typeName) \(data.diagnosticDescription)")
        }
        let length = try payload["len"].map { _ throws(SMPResponseError) in try payload.unsigned("len") }
        return Response(offset: try payload.unsigned("off"), data: bytes, length: length)
    }
}
