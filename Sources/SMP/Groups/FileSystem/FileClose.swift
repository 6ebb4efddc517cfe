import CBOR

/// Close (file system command 4, write; docs/protocol/file-system.md §9.6): the device closes the file it holds open for an
/// upload or download. Send it before downloading a file that may still be open, or the device
/// serves the length it captured when it opened the file.
public struct FileClose: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .fileSystem, command: FileSystemCommandID.close, operation: .write, payload: [:], isRetrySafe: true, name: "fs close")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
