#if canImport(Glibc)
import Glibc
#endif
import SMP

/// The temporary file a download is written to before it takes the destination's name:
/// `LOCAL.part` in the destination's folder, renamed to `LOCAL` only once it is complete and
/// synced to disk, so that `LOCAL` is never seen half written.
///
/// An existing `LOCAL.part` (an interrupted download) is continued only when it is safe to: a
/// regular file of this user with no other link to it, opened without following a symbolic
/// link. Anything else planted there (a symbolic link, a FIFO, another user's file, a hard link
/// to some other file) is left alone, not written through: the download then goes to a new file
/// created exclusively beside it (`LOCAL.part-XXXXXXXX`), which no failure leaves behind.
/// New files get mode 0666 less the umask.
public final class PartialDownloadFile: ResumableDownloadSink, Sendable {
    /// Where the file goes when complete.
    public let destination: String
    /// The temporary file's path (`LOCAL.part`, or a fresh name when that could not be used).
    public let path: String
    /// Its size when it was opened: what an interrupted download left (0 for a new file).
    public let initialSize: UInt64
    /// Why an existing `LOCAL.part` was not continued (nil when it was, or there was none).
    public let ignoredPart: String?
    private let descriptor: Int32
    private let identity: FileIdentity
    /// A uniquely named file: it cannot be continued later, so any failure removes it.
    private let isScratch: Bool

    /// Opens `destination.part` when it can be continued, else creates a temporary file beside
    /// `destination`; throws when neither can be created (a missing or read-only folder).
    public init(destination: String) throws(FileAccessError) {
        let partPath = destination + ".part"
        var ignored: String?
        var opened: (descriptor: Int32, path: String, scratch: Bool)?
        switch Self.openExisting(partPath) {
        case .opened(let descriptor): opened = (descriptor, partPath, false)
        case .unusable(let reason): ignored = reason
        case .missing:
            let descriptor = open(partPath, Self.createFlags, 0o666)
            if descriptor >= 0 {
                opened = (descriptor, partPath, false)
            } else if errno == EEXIST {
                ignored = "it appeared while it was being created"
            } else {
                throw FileAccessError(path: partPath, operation: "create", code: errno)
            }
        }
        if opened == nil { opened = try Self.createScratch(beside: destination) }
        guard let opened else { throw FileAccessError(path: partPath, operation: "create", code: EEXIST) }
        var info = stat()
        guard fstat(opened.descriptor, &info) == 0 else {
            let code = errno
            close(opened.descriptor)
            throw FileAccessError(path: opened.path, operation: "open", code: code)
        }
        self.destination = destination
        path = opened.path
        descriptor = opened.descriptor
        isScratch = opened.scratch
        identity = FileIdentity(info)
        initialSize = opened.scratch ? 0 : UInt64(info.st_size)
        ignoredPart = ignored.map { "\(partPath) is not continued: \($0); it is left as it is" }
    }

    deinit { close(descriptor) }

    public func write(_ bytes: [UInt8], at offset: UInt64) throws {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress.map { $0 + done }, bytes.count - done, off_t(offset) + off_t(done))
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw FileAccessError(path: path, operation: "write", code: written < 0 ? errno : EIO) }
            done += written
        }
    }

    public func finish(length: UInt64) throws {
        try truncate(to: length)
    }

    /// Cuts the file to `length` bytes (0: start afresh).
    public func truncate(to length: UInt64) throws(FileAccessError) {
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw FileAccessError(path: path, operation: "write", code: errno) }
    }

    /// The file's current size.
    public var size: UInt64 {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? UInt64(info.st_size) : 0
    }

    /// The file's bytes, read through the same open file (never again by name), e.g. to hash
    /// what an interrupted download left.
    public func contents() throws(FileAccessError) -> FileUploadSource {
        let copy = dup(descriptor)
        guard copy >= 0 else { throw FileAccessError(path: path, operation: "read", code: errno) }
        do {
            return try FileUploadSource(descriptor: copy, path: path)
        } catch {
            close(copy)
            throw error
        }
    }

    /// Syncs the complete file to disk and renames it to ``destination`` (replacing a regular
    /// file there, whose read, write and execute bits it takes over — never set-user-ID or
    /// set-group-ID), then syncs the folder.
    public func commit() throws(FileAccessError) {
        guard fsync(descriptor) == 0 else { throw FileAccessError(path: path, operation: "sync", code: errno) }
        guard isStillOurs else {
            throw FileAccessError(path: path, operation: "rename", code: EBUSY, detail: "it was replaced by something else while the download ran")
        }
        var existing = stat()
        if lstat(destination, &existing) == 0, LocalFileKind(mode: existing.st_mode) == .regularFile {
            _ = fchmod(descriptor, existing.st_mode & 0o777)
        }
        guard rename(path, destination) == 0 else {
            throw FileAccessError(path: destination, operation: "rename \(path) to", code: errno)
        }
        let folder = open(Self.folder(of: destination), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    /// After a failed download: removes the file unless `keepingProgress` and it holds bytes
    /// that a later run can continue (it is `LOCAL.part`, not a scratch file).
    public func abandon(keepingProgress: Bool) {
        guard isScratch || !keepingProgress || size == 0 else { return }
        if isStillOurs { unlink(path) }
    }

    /// Whether `path` still names the file this object has open.
    private var isStillOurs: Bool {
        var info = stat()
        return lstat(path, &info) == 0 && FileIdentity(info) == identity
    }

    /// `open` flags for a new file: exclusive, never through a link.
    private static let createFlags = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC

    private enum Existing {
        case opened(Int32)
        case unusable(String)
        case missing
    }

    /// Opens an existing `path` to continue it, if it is safe to.
    private static func openExisting(_ path: String) -> Existing {
        // O_NOFOLLOW: a symbolic link fails (ELOOP) instead of being followed; O_NONBLOCK: a FIFO
        // planted there does not block the open.
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT: return .missing
            case ELOOP: return .unusable("it is a symbolic link")
            default: return .unusable("it cannot be opened (\(String(cString: strerror(code))))")
            }
        }
        var info = stat()
        let problem: String?
        if fstat(descriptor, &info) != 0 {
            problem = "it cannot be examined (\(String(cString: strerror(errno))))"
        } else if LocalFileKind(mode: info.st_mode) != .regularFile {
            problem = "it is \(LocalFileKind(mode: info.st_mode).rawValue)"
        } else if info.st_uid != geteuid() {
            problem = "it belongs to another user (uid \(info.st_uid))"
        } else if info.st_nlink != 1 {
            problem = "it has \(info.st_nlink) hard links (it may be another file's)"
        } else {
            problem = nil
        }
        if let problem {
            close(descriptor)
            return .unusable(problem)
        }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return .opened(descriptor)
    }

    /// Creates a new, uniquely named file beside `destination`.
    private static func createScratch(beside destination: String) throws(FileAccessError) -> (descriptor: Int32, path: String, scratch: Bool) {
        var generator = SystemRandomNumberGenerator()
        var lastError = EEXIST
        for _ in 0..<16 {
            let suffix = String(generator.next() & 0xffff_ffff, radix: 16)
            let candidate = destination + ".part-" + String(repeating: "0", count: 8 - suffix.count) + suffix
            let descriptor = open(candidate, createFlags, 0o666)
            if descriptor >= 0 { return (descriptor, candidate, true) }
            lastError = errno
            guard lastError == EEXIST else { break }
        }
        throw FileAccessError(path: destination + ".part-…", operation: "create", code: lastError)
    }

    /// The folder that holds `path`.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// A file's device and inode: what tells whether a name still names the same file.
private struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
