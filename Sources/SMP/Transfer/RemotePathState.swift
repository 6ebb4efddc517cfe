/// What the device's file system group answers about a path, from file status (docs/protocol/file-system.md §9.3; Zephyr: a
/// file's size, or `FILE_IS_DIRECTORY` for a directory — the mount point and `/` included — or
/// `FILE_NOT_FOUND`).
public enum RemotePathState: Sendable, Hashable {
    /// A file of `size` bytes.
    case file(size: UInt64)
    /// A directory (a mount point and `/` included).
    case directory
    /// Nothing at that path.
    case missing
    /// Another error, or an answer that tells nothing (a v1 device's translated `rc`).
    case unknown

    /// Asks the device about `path`; only a lost link or an interruption throws.
    public static func query(_ client: SMPClient, path: String) async throws -> RemotePathState {
        do {
            return .file(size: try await client.send(FileStatus(name: path)))
        } catch SMPError.device(let error, _) {
            switch fileSystemCode(error) {
            case .fileIsDirectory: return .directory
            case .fileNotFound: return .missing
            default: return .unknown
            }
        }
    }

    /// The `FS_MGMT_ERR_*` code of a file system group error, nil for any other error.
    static func fileSystemCode(_ error: SMPDeviceError) -> FileSystemGroupError? {
        guard case .groupError(let groupError) = error else { return nil }
        return groupError.code(as: FileSystemGroupError.self)
    }
}
