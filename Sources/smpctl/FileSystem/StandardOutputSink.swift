import Foundation
import SMP

/// Standard output as a ``DownloadSink``: answers that arrive ahead of the bytes before them
/// wait (at most a window's worth) until they can be written in order.
final class StandardOutputSink: DownloadSink, @unchecked Sendable {
    private let lock = NSLock()
    private var written: UInt64 = 0
    private var waiting: [UInt64: [UInt8]] = [:]

    func write(_ bytes: [UInt8], at offset: UInt64) throws {
        try lock.withLock {
            guard offset + UInt64(bytes.count) > written else { return }
            waiting[offset] = bytes
            while let next = waiting.keys.filter({ $0 <= written }).min(), let piece = waiting.removeValue(forKey: next) {
                let skip = Int(written - next)
                guard skip < piece.count else { continue }
                guard StandardStream.standardOutput.write(bytes: piece[skip...]) else { throw StandardStream.standardOutput.writeError }
                written += UInt64(piece.count - skip)
            }
        }
    }

    func finish(length: UInt64) throws {}
}
