#if canImport(Glibc)
import Glibc
#endif
import SMP

/// Where a download goes, from what the user named (`fs get REMOTE LOCAL`):
///
/// - `-`, or a link to this process's standard output (`/dev/stdout`): standard output;
/// - a character device or a FIFO (`/dev/null`, a named pipe): written to as a stream, never
///   replaced;
/// - a directory (or a name ending in `/`): the remote file's name inside it;
/// - a new name, or an existing regular file: a regular file, written through a
///   ``PartialDownloadFile`` and renamed into place when complete;
/// - a symbolic link is followed only when it belongs to the user or to root (a link another user
///   planted is refused); a link to a regular file has its target replaced, the link stays;
/// - anything else (a block device, a socket, a dangling link) is refused with the reason.
public enum DownloadDestination: Sendable, Hashable {
    /// Standard output.
    case standardOutput
    /// A character device or a FIFO.
    case stream(path: String, kind: LocalFileKind)
    /// A regular file at this path (which may not exist yet).
    case file(path: String)

    /// The destination for `local`; `remoteName` is the file's name on the device, used when
    /// `local` is a directory.
    public static func resolve(_ local: String, remoteName: String) throws(FileAccessError) -> DownloadDestination {
        if local == "-" { return .standardOutput }
        return try resolveEntry(local, remoteName: remoteName)
    }

    /// The path to display and to give back to the user.
    public var path: String {
        switch self {
        case .standardOutput: return "-"
        case .stream(let path, _), .file(let path): return path
        }
    }

    /// Opens a stream destination for writing: a FIFO without a reader is refused at once
    /// (rather than waiting for one); the caller closes the descriptor.
    public static func openStream(_ path: String, kind: LocalFileKind) throws(FileAccessError) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENXIO, kind == .fifo {
                throw FileAccessError(path: path, operation: "write to", code: code, detail: "no process reads the FIFO: start its reader first")
            }
            throw FileAccessError(path: path, operation: "open", code: code)
        }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return descriptor
    }

    /// What `path` names: a directory gives `remoteName` inside it (nil: a directory is an error).
    private static func resolveEntry(_ path: String, remoteName: String?) throws(FileAccessError) -> DownloadDestination {
        guard let (kind, info) = LocalFileKind.of(path) else {
            let code = errno
            guard code == ENOENT else { throw FileAccessError(path: path, operation: "examine", code: code) }
            if path.hasSuffix("/") {
                throw FileAccessError(path: path, operation: "write into", code: ENOENT, detail: "the folder does not exist: create it first")
            }
            try requireFolder(of: path)
            return .file(path: path)
        }
        switch kind {
        case .regularFile:
            return .file(path: path)
        case .directory:
            guard let remoteName else {
                throw FileAccessError(path: path, operation: "write", code: EISDIR, detail: "it is a directory: give a file name")
            }
            return try resolveEntry(path.hasSuffix("/") ? path + remoteName : path + "/" + remoteName, remoteName: nil)
        case .fifo, .characterDevice:
            return .stream(path: path, kind: kind)
        case .symbolicLink:
            return try followLink(path, owner: info.st_uid, remoteName: remoteName)
        default:
            throw FileAccessError(
                path: path, operation: "write", code: EINVAL,
                detail: "it is \(kind.rawValue): only regular files, character devices and FIFOs are written; give a file name")
        }
    }

    /// A symbolic link: followed when its owner is the user or root.
    private static func followLink(_ path: String, owner: uid_t, remoteName: String?) throws(FileAccessError) -> DownloadDestination {
        guard owner == geteuid() || owner == 0 else {
            throw FileAccessError(
                path: path, operation: "write", code: EPERM,
                detail: "it is a symbolic link of another user (uid \(owner)), not followed: remove it or give another name")
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            let detail = code == ENOENT ? "it is a symbolic link to a missing file: remove the link or give another name" : nil
            throw FileAccessError(path: path, operation: "follow the link", code: code, detail: detail)
        }
        var output = stat()
        if fstat(STDOUT_FILENO, &output) == 0, output.st_dev == info.st_dev, output.st_ino == info.st_ino {
            // /dev/stdout, /dev/fd/1: this process's own standard output, whatever it is.
            return .standardOutput
        }
        let kind = LocalFileKind(mode: info.st_mode)
        if kind.isStream {
            // Written through the link as it is (a pipe behind /dev/fd/N has no path of its own).
            return .stream(path: path, kind: kind)
        }
        guard let target = realpath(path, nil) else {
            throw FileAccessError(path: path, operation: "follow the link", code: errno)
        }
        defer { free(target) }
        return try resolveEntry(String(cString: target), remoteName: remoteName)
    }

    /// Throws unless the folder that would hold `path` exists.
    private static func requireFolder(of path: String) throws(FileAccessError) {
        let folder = PartialDownloadFile.folder(of: path)
        var info = stat()
        guard stat(folder, &info) == 0 else {
            let code = errno
            let detail = code == ENOENT ? "the folder \(folder) does not exist: create it first" : nil
            throw FileAccessError(path: path, operation: "write", code: code, detail: detail)
        }
        guard LocalFileKind(mode: info.st_mode) == .directory else {
            throw FileAccessError(path: path, operation: "write", code: ENOTDIR, detail: "\(folder) is not a folder")
        }
    }
}
