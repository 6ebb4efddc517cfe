#if canImport(Glibc)
import Glibc
#endif

/// What a local path names, from its `st_mode`: the CLI and the library name it in errors
/// ("… is a FIFO (named pipe)") and decide from it how a file may be read or written.
public enum LocalFileKind: String, Sendable, Hashable {
    /// A regular file.
    case regularFile = "a regular file"
    /// A directory.
    case directory = "a directory"
    /// A FIFO: it has no size, and opening it waits for the other end.
    case fifo = "a FIFO (named pipe)"
    /// A character device (`/dev/null`, a tty).
    case characterDevice = "a character device"
    /// A block device (a disk).
    case blockDevice = "a block device"
    /// A Unix domain socket.
    case socket = "a socket"
    /// A symbolic link (seen with `lstat`).
    case symbolicLink = "a symbolic link"
    /// Anything else.
    case other = "not a regular file"

    /// The kind of an `st_mode`.
    public init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regularFile
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        case S_IFLNK: self = .symbolicLink
        default: self = .other
        }
    }

    /// The kind of what `path` names (the link itself for a symbolic link), or nil when nothing
    /// is there (or it cannot be examined: `errno` tells why).
    public static func of(_ path: String) -> (kind: LocalFileKind, info: stat)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (LocalFileKind(mode: info.st_mode), info)
    }

    /// Whether writing to it is a stream that cannot be replaced or read back (a device or a FIFO).
    public var isStream: Bool { self == .fifo || self == .characterDevice }
}
