#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking pipe that wakes a thread blocked in `poll()` (a transport's reader thread, a
/// device waiter), e.g. when its task is cancelled or its link closes.
public final class WakeupPipe: Sendable {
    /// The end to poll for readability.
    public let readEnd: Int32
    private let writeEnd: Int32

    /// Creates the pipe; nil when the process is out of descriptors (`errno` says why).
    public init?() {
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
    public func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Whether ``signal()`` has been called since the last ``drain()``.
    public var isSignalled: Bool {
        var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN) != 0
    }

    /// Empties the pipe after a wake-up.
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }
}
