import Foundation

/// A stream (standard output, a character device, a FIFO) as a ``DownloadSink``: a stream cannot
/// seek, so answers that arrive ahead of the bytes before them wait (at most a window's worth)
/// until they can be written in order.
public final class OrderedStreamSink: DownloadSink, @unchecked Sendable {
    private let lock = NSLock()
    private let output: ([UInt8]) throws -> Void
    private var written: UInt64 = 0
    private var waiting: [UInt64: [UInt8]] = [:]

    /// A sink that hands the bytes, in order, to `output`.
    public init(output: @escaping ([UInt8]) throws -> Void) {
        self.output = output
    }

    /// A sink writing to the open file `descriptor` (not closed by the sink); `path` names it in errors.
    public convenience init(descriptor: Int32, path: String) {
        self.init { bytes in
            var done = 0
            while done < bytes.count {
                let count = bytes.withUnsafeBytes { buffer in
                    Foundation.write(descriptor, buffer.baseAddress.map { $0 + done }, bytes.count - done)
                }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw FileAccessError(path: path, operation: "write", code: count < 0 ? errno : EIO) }
                done += count
            }
        }
    }

    /// The number of bytes written so far.
    public var count: UInt64 { lock.withLock { written } }

    public func write(_ bytes: [UInt8], at offset: UInt64) throws {
        try lock.withLock {
            guard offset + UInt64(bytes.count) > written else { return }
            waiting[offset] = bytes
            while let next = waiting.keys.filter({ $0 <= written }).min(), let piece = waiting.removeValue(forKey: next) {
                let skip = Int(written - next)
                guard skip < piece.count else { continue }
                try output(Array(piece[skip...]))
                written += UInt64(piece.count - skip)
            }
        }
    }

    public func finish(length: UInt64) throws {}
}
