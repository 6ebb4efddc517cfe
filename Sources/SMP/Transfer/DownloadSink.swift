#if canImport(Glibc)
import Glibc
#endif

/// Where a ``FileDownloader`` writes: each answer's bytes at their offset, in whatever order the
/// answers arrive, then the final length.
public protocol DownloadSink: AnyObject {
    /// Writes `bytes` at `offset`.
    func write(_ bytes: [UInt8], at offset: UInt64) throws
    /// Called once every byte is written: the file is `length` bytes long (a sink holding more,
    /// from an earlier and longer version of the file, cuts the rest).
    func finish(length: UInt64) throws
}

/// A local file as a ``DownloadSink``: `pwrite` at each offset, `ftruncate` at the end; opened
/// without truncation, so that a partial download can be continued.
public final class FileDownloadSink: DownloadSink, Sendable {
    /// The file's path.
    public let path: String
    /// The file's size when it was opened (what an earlier download left).
    public let initialSize: UInt64
    private let descriptor: Int32

    /// Opens or creates `path` for writing, keeping its contents; a symbolic link there is refused
    /// (ELOOP), never written through. ``PartialDownloadFile`` is the safe way to download a file.
    public init(path: String) throws(FileAccessError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw FileAccessError(path: path, operation: "create", code: errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw FileAccessError(path: path, operation: "open", code: code)
        }
        self.path = path
        self.descriptor = descriptor
        initialSize = UInt64(info.st_size)
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
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw FileAccessError(path: path, operation: "write", code: errno) }
    }

    /// Cuts the file to `length` bytes (0: start afresh).
    public func truncate(to length: UInt64) throws {
        try finish(length: length)
    }
}
