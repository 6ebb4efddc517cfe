#if canImport(Glibc)
import Glibc
#endif
import DescriptorIO

/// Standard input as a stream of byte chunks, read on a ``PollingThread`` so that a blocking
/// read never holds up the Swift concurrency pool. The thread reads only after `poll()` says
/// there is input (standard input is shared with the shell, so it is not made non-blocking) and
/// stops when the stream is dropped. The stream ends at end of file or a read error.
enum StandardInputBytes {
    /// Starts reading; the thread ends with the input or the stream.
    static func stream() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        do {
            let thread = try PollingThread { thread in
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !thread.isStopping {
                    var waiting = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
                    switch thread.wait(&waiting, timeout: nil) {
                    case .ready: break
                    case .woken, .timedOut: continue
                    case .failed: return continuation.finish()
                    }
                    let count = read(STDIN_FILENO, &buffer, buffer.count)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    continuation.yield(Array(buffer.prefix(count)))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in thread.stop() }
        } catch {
            continuation.finish()
        }
        return stream
    }
}
