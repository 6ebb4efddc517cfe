#if canImport(Glibc)
import Glibc
#endif

/// Where a chunked upload reads its bytes: a byte array, or a file read chunk by chunk
/// (``FileUploadSource``), so that a large file is never held in memory whole.
public protocol UploadSource: Sendable {
    /// The number of bytes.
    var count: Int { get }

    /// The `length` bytes at `offset` (the range lies within `0..<count`).
    func read(offset: Int, length: Int) throws -> [UInt8]
}

extension Array: UploadSource where Element == UInt8 {
    /// A slice of the array.
    public func read(offset: Int, length: Int) -> [UInt8] {
        Array(self[offset..<(offset + length)])
    }
}

/// A local file as an ``UploadSource``: its size is taken when it is opened, and each chunk is
/// read with `pread` at its offset.
public final class FileUploadSource: UploadSource {
    /// The file's path.
    public let path: String
    public let count: Int
    private let descriptor: Int32

    /// Opens `path` for reading. Only a regular file is accepted: a FIFO, a device or a
    /// directory is refused at once (its size is unknown, and opening a FIFO without a writer
    /// would wait forever), with an error that names what it is.
    public convenience init(path: String) throws(FileAccessError) {
        // O_NONBLOCK: opening a FIFO returns at once, so that it can be refused.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw FileAccessError(path: path, operation: "open", code: errno) }
        do {
            try self.init(descriptor: descriptor, path: path)
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Reads the regular file open as `descriptor` (`path` names it in errors), which the source
    /// then owns; when this throws, the caller still owns it.
    public init(descriptor: Int32, path: String) throws(FileAccessError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileAccessError(path: path, operation: "read", code: errno) }
        let kind = LocalFileKind(mode: info.st_mode)
        guard kind == .regularFile else {
            let advice = kind == .directory ? "give a file inside it" : "save the data to a file first and give that file"
            throw FileAccessError(
                path: path, operation: "read", code: kind == .directory ? EISDIR : EINVAL,
                detail: "it is \(kind.rawValue), not a regular file (only a file whose size is known is read): \(advice)")
        }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        self.path = path
        self.descriptor = descriptor
        count = Int(info.st_size)
    }

    deinit { close(descriptor) }

    public func read(offset: Int, length: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress.map { $0 + done }, length - done, off_t(offset + done))
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else {
                throw FileAccessError(path: path, operation: "read", code: got < 0 ? errno : EIO, detail: got == 0 ? "the file shrank while it was read" : nil)
            }
            done += got
        }
        return bytes
    }
}

/// A local file that could not be opened, read or written.
public struct FileAccessError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    public var path: String
    /// What was attempted: `open`, `read`, `write`, `rename`.
    public var operation: String
    /// The `errno`.
    public var code: Int32
    /// A note that replaces the system's message.
    public var detail: String?

    /// Creates an error.
    public init(path: String, operation: String, code: Int32, detail: String? = nil) {
        self.path = path
        self.operation = operation
        self.code = code
        self.detail = detail
    }

    /// Whether the file does not exist.
    public var isMissing: Bool { code == ENOENT }

    public var description: String {
        let reason = detail ?? String(cString: strerror(code))
        return "cannot \(operation) \(path): \(reason)"
    }
}
