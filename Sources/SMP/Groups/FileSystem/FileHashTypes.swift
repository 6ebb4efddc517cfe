import CBOR

/// The hash and checksum types a device supports (file system command 3, read; docs/protocol/file-system.md §9.5).
public struct FileHashTypes: SMPCommand {
    /// One supported type.
    public struct HashType: Sendable, Hashable {
        /// The type's name (`crc32`, `sha256`).
        public var name: String
        /// Whether the output is a byte string (sha256) rather than a number (crc32).
        public var isByteString: Bool
        /// The output's size in bytes.
        public var size: UInt64

        /// Creates a type.
        public init(name: String, isByteString: Bool, size: UInt64) {
            self.name = name
            self.isByteString = isByteString
            self.size = size
        }
    }

    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .fileSystem, command: FileSystemCommandID.supportedHashes, operation: .read, payload: [:], name: "fs supported hashes")
    }

    /// The types, in the device's order.
    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> [HashType] {
        var types: [HashType] = []
        for entry in try payload.map("types") {
            guard let name = entry.key.stringValue, let fields = entry.value.mapValue else {
                throw SMPResponseError("\"types\" should map names to {format, size} but holds \(entry.key.diagnosticDescription)")
            }
            types.append(HashType(name: name, isByteString: try fields.unsigned("format") == 1, size: try fields.unsigned("size")))
        }
        return types
    }
}
