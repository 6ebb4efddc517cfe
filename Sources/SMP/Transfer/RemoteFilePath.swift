/// Paths on the device's file system: absolute, starting with a mount point (`/lfs1/data.bin`).
public enum RemoteFilePath {
    /// Refuses a relative path before anything is sent: the device only knows absolute paths (a
    /// relative one would be answered "no file system mounted there").
    public static func validate(_ path: String) throws(RemoteFilePathError) {
        guard path.hasPrefix("/") else { throw .notAbsolute(path) }
    }

    /// The destination of an upload of the local file at `localPath` to `remote`: a `remote`
    /// that ends in `/` or names a directory on the device means the local file's name inside
    /// that directory (as `cp FILE DIR` does); any other `remote` is the file's path itself.
    /// `state` is the device's answer about that path when file status asked it (nil when it
    /// was not asked), so that the upload need not ask again
    /// (``FileSystemUpload/init(client:name:state:window:restart:verification:)``).
    public static func destination(_ remote: String, localPath: String, client: SMPClient) async throws -> (path: String, state: RemotePathState?) {
        let localName = String(localPath.split(separator: "/").last ?? Substring(localPath))
        if remote.hasSuffix("/") { return (remote + localName, nil) }
        let state = try await RemotePathState.query(client, path: remote)
        return state == .directory ? (remote + "/" + localName, nil) : (remote, state)
    }

    /// The file's name: the last component of `path` (`/lfs1/log.txt` → `log.txt`), empty when
    /// it has none (`/`).
    public static func fileName(of path: String) -> String {
        String(path.split(separator: "/").last ?? "")
    }

    /// The folder that holds `path` on the device (`/` for a top-level name).
    public static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/"), slash != trimmed.startIndex else { return "/" }
        return String(trimmed[..<slash])
    }
}

/// A path the device's file system cannot take.
public enum RemoteFilePathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path does not start with `/`.
    case notAbsolute(String)

    public var description: String {
        switch self {
        case .notAbsolute(let path):
            "the remote path \"\(path)\" is not absolute: give the whole path from the mount point, e.g. /lfs1/data.bin"
        }
    }
}
