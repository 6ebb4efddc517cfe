#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Synchronization

/// The `--log-file` of this run: opened once for appending and shared by every logger, each
/// record written with one `write(2)`, so that records from concurrent tasks (or runs) never
/// interleave within a line. A write that fails is dropped; the command goes on.
final class LogFile: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The file of this run, once ``open(_:)`` has opened it.
    static var current: LogFile? { opened.withLock { $0?.file } }

    private static let opened = Mutex<(path: String, file: LogFile)?>(nil)

    /// Opens (creating or appending to) the log file at `path` as the run's file; the same path
    /// twice is opened once.
    @discardableResult
    static func open(_ path: String) throws(LogFileError) -> LogFile {
        try opened.withLock { (opened) throws(LogFileError) -> LogFile in
            if let opened, opened.path == path { return opened.file }
            let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw LogFileError(path: path, reason: String(cString: strerror(errno))) }
            let file = LogFile(descriptor: descriptor)
            opened = (path, file)
            return file
        }
    }

    /// Checks, without creating it, that `path` can be opened for appending: an existing file
    /// that may be written, or a new one in a folder that may be written to.
    static func check(_ path: String) throws(LogFileError) {
        var info = stat()
        let failure: Int32?
        if stat(path, &info) == 0 {
            failure = info.st_mode & S_IFMT == S_IFDIR ? EISDIR : access(path, W_OK) == 0 ? nil : errno
        } else if errno != ENOENT {
            failure = errno
        } else {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            failure = access(folder, W_OK) == 0 ? nil : errno
        }
        if let failure { throw LogFileError(path: path, reason: String(cString: strerror(failure))) }
    }

    /// Appends `text` (one record).
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}

/// A `--log-file` that cannot be opened.
struct LogFileError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String {
        "cannot open the log file \(path): \(reason); give a writable path to --log-file"
    }
}
