import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Standard input as a stream of byte chunks, read on its own thread so that a blocking read
/// never holds up the Swift concurrency pool. The stream ends at end of file or a read error.
enum StandardInputBytes {
    /// Starts reading; the thread ends with the input.
    static func stream() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                continuation.yield(Array(buffer.prefix(count)))
            }
            continuation.finish()
        }
        thread.start()
        return stream
    }
}
