#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking pipe that wakes a thread blocked in `poll()`: the wake-up of a
/// ``PollingThread`` (use that rather than a pipe and a thread of your own).
final class WakeupPipe: Sendable {
    /// The end to poll for readability.
    let readEnd: Int32
    private let writeEnd: Int32

    /// Creates the pipe; nil when the process is out of descriptors (`errno` says why).
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Wakes the poller (a full pipe already will).
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }
}
