import CBOR

/// File status (file system command 1, read; docs/protocol/file-system.md §9.3): the file's size.
public struct FileStatus: SMPCommand {
    /// The file's absolute path on the device.
    public var name: String

    /// Creates the request.
    public init(name: String) { self.name = name }

    public var request: SMPRequest {
        SMPRequest(group: .fileSystem, command: FileSystemCommandID.status, operation: .read, payload: ["name": .text(name)], name: "fs status")
    }

    /// The file's length in bytes.
    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> UInt64 {
        try payload.unsigned("len")
    }
}
