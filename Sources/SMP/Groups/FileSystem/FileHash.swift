import CBOR

/// A hash or checksum of a file (file system command 2, read; docs/protocol/file-system.md §9.4), of the whole file or of
/// `length` bytes from `offset`. The request's keys are `name`, `type`, `off` and `len`.
public struct FileHash: SMPCommand {
    /// The device's answer.
    public struct Response: Sendable, Hashable {
        /// The type used (`crc32`, `sha256`, …).
        public var type: String
        /// Where hashing started.
        public var offset: UInt64
        /// The number of bytes hashed.
        public var length: UInt64
        /// The hash or checksum, as bytes: a numeric output (crc32) as its 4 big-endian bytes.
        public var output: [UInt8]

        /// Creates a response.
        public init(type: String, offset: UInt64, length: UInt64, output: [UInt8]) {
            self.type = type
            self.offset = offset
            self.length = length
            self.output = output
        }

        /// The output in hexadecimal.
        public var hex: String { Hex.string(output) }
    }

    /// The file's absolute path on the device.
    public var name: String
    /// The hash or checksum type; nil lets the device choose (crc32 if it has it).
    public var type: String?
    /// Where to start (nil: 0).
    public var offset: UInt64?
    /// How many bytes to hash (nil: to the end of the file; 0 is invalid).
    public var length: UInt64?

    /// Creates the request.
    public init(name: String, type: String? = nil, offset: UInt64? = nil, length: UInt64? = nil) {
        self.name = name
        self.type = type
        self.offset = offset
        self.length = length
    }

    public var request: SMPRequest {
        var map: CBORMap = ["name": .text(name)]
        if let type { map.append(key: "type", value: .text(type)) }
        if let offset { map.append(key: "off", value: .unsigned(offset)) }
        if let length { map.append(key: "len", value: .unsigned(length)) }
        return SMPRequest(
            group: .fileSystem, command: FileSystemCommandID.hash, operation: .read, payload: map, timeout: .seconds(30),
            name: "fs hash")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> Response {
        let value = try payload.field("output")
        let output: [UInt8]
        if let bytes = value.bytesValue {
            output = bytes
        } else if let number = value.uint64Value, number <= UInt32.max {
            output = (0..<4).reversed().map { UInt8(truncatingIfNeeded: number >> (8 * $0)) }
        } else {
            throw SMPResponseError("field \"output\" should be a byte string or a 32-bit number but is \(value.typeName) \(value.diagnosticDescription)")
        }
        let offset = try payload["off"].map { _ throws(SMPResponseError) in try payload.unsigned("off") } ?? 0
        return Response(type: try payload.text("type"), offset: offset, length: try payload.unsigned("len"), output: output)
    }
}
