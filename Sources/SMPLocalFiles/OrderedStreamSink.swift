#if canImport(Glibc)
import Glibc
#endif
import SMP
import Synchronization

/// A stream (standard output, a character device, a FIFO) as a ``DownloadSink``: a stream cannot
/// seek, so answers that arrive ahead of the bytes before them wait (at most a window's worth)
/// until they can be written in order.
public final class OrderedStreamSink: DownloadSink, Sendable {
    private let output: @Sendable ([UInt8]) throws -> Void
    private let state = Mutex(State())

    /// The bytes written so far and the answers waiting for the bytes before them.
    private struct State {
        var written: UInt64 = 0
        var waiting: [UInt64: [UInt8]] = [:]
    }

    /// A sink that hands the bytes, in order, to `output`.
    public init(output: @escaping @Sendable ([UInt8]) throws -> Void) {
        self.output = output
    }

    /// A sink writing to the open file `descriptor` (not closed by the sink); `path` names it in errors.
    public convenience init(descriptor: Int32, path: String) {
        self.init { bytes in
            var done = 0
            while done < bytes.count {
                let count = bytes.withUnsafeBytes { buffer in
                    Glibc.write(descriptor, buffer.baseAddress.map { $0 + done }, bytes.count - done)
                }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw FileAccessError(path: path, operation: "write", code: count < 0 ? errno : EIO) }
                done += count
            }
        }
    }

    /// The number of bytes written so far.
    public var count: UInt64 { state.withLock { $0.written } }

    public func write(_ bytes: [UInt8], at offset: UInt64) throws {
        try state.withLock { state in
            guard offset + UInt64(bytes.count) > state.written else { return }
            state.waiting[offset] = bytes
            while let next = state.waiting.keys.filter({ $0 <= state.written }).min(), let piece = state.waiting.removeValue(forKey: next) {
                let skip = Int(state.written - next)
                guard skip < piece.count else { continue }
                try output(Array(piece[skip...]))
                state.written += UInt64(piece.count - skip)
            }
        }
    }

    public func finish(length: UInt64) throws {}
}
