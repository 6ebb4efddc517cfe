#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Logging
import Synchronization

/// Standard output and standard error, written with `write(2)` and never trapping (docs/exit-codes.md,
/// "Output that cannot be written").
///
/// Foundation's `FileHandle.write(_:)` traps when the descriptor is closed, full or a broken pipe;
/// every byte smpctl prints goes through ``write(_:)`` instead, which retries on `EINTR` and
/// `EAGAIN`, and on any other failure (`EPIPE`, `ENOSPC`, `EBADF`, `EIO`…) records it and drops
/// this and every later write to that stream. SIGPIPE is ignored (``prepare()``), so a reader that
/// went away shows up as `EPIPE` here rather than killing the process in the middle of a flash
/// operation. A failed standard output ends the command with exit status 74 once it has finished
/// (``SMPCtl/main()``); a failed standard error changes nothing (its text is lost, the exit status
/// still tells the outcome).
enum StandardStream: Int32, CaseIterable, Sendable {
    case standardOutput = 1
    case standardError = 2

    /// Why each stream stopped taking bytes (`errno`), if it did.
    private static let failures = Mutex<[StandardStream: Int32]>([:])

    /// Call once at start: ignores SIGPIPE, and puts `/dev/null` on standard input, output or
    /// error when the process started with it closed (`2>&-`), so that no file smpctl opens later
    /// (a serial port, a socket) becomes descriptor 1 or 2 and receives its messages. A closed
    /// output or error stream counts as failed (`EBADF`) from the start.
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", O_RDWR)
            if opened >= 0 && opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
            if let stream = StandardStream(rawValue: descriptor) { failures.withLock { $0[stream] = EBADF } }
        }
    }

    /// The `errno` with which this stream failed, nil while it works.
    var failure: Int32? { Self.failures.withLock { $0[self] } }

    /// What the failure was, e.g. `standard output: Broken pipe`.
    var failureDescription: String? {
        failure.map { "\(self == .standardOutput ? "standard output" : "standard error"): \(String(cString: strerror($0)))" }
    }

    /// The failure as the CLI reports it (exit status 74), for a command that cannot go on
    /// without this stream (a download to standard output).
    var writeError: CLIError {
        CLIError(
            .outputError, "cannot write to \(failureDescription ?? "standard output")",
            hint: "the reader of the output went away or its disk is full; the command stopped there")
    }

    /// Writes `text`; false when the stream has failed (now or before) and the text was dropped.
    @discardableResult
    func write(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes`; false when the stream has failed (now or before) and the bytes were dropped.
    @discardableResult
    func write<Bytes: Collection<UInt8>>(bytes: Bytes) -> Bool {
        if let done = bytes.withContiguousStorageIfAvailable({ write(UnsafeRawBufferPointer($0)) }) { return done }
        return Array(bytes).withUnsafeBytes { write($0) }
    }

    /// Writes the whole buffer, retrying interrupted and would-block writes.
    private func write(_ buffer: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil else { return false }
        guard let base = buffer.baseAddress else { return true }
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(rawValue, base + offset, buffer.count - offset)
            if written > 0 {
                offset += written
                continue
            }
            let code = written == 0 ? EIO : errno
            switch code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                // A non-blocking descriptor that is full: wait until it takes bytes again.
                var waiting = pollfd(fd: rawValue, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiting, 1, 1000)
            default:
                Self.failures.withLock { $0[self] = $0[self] ?? code }
                return false
            }
        }
        return true
    }
}

extension StandardStream {
    /// A standard stream as a `TextOutputStream`, for swift-log's `StreamLogHandler`: log lines go
    /// through the same non-trapping writer as everything else.
    struct TextStream: TextOutputStream, Sendable {
        let stream: StandardStream

        mutating func write(_ string: String) {
            stream.write(string)
        }
    }

    /// A log handler writing to standard error (the format of swift-log's `StreamLogHandler`).
    static func logHandler(label: String) -> StreamLogHandler {
        StreamLogHandler(label: label, stream: TextStream(stream: .standardError))
    }
}
