#if canImport(Glibc)
import Glibc
#endif

/// A pipe that wakes a thread blocked in `poll()`, e.g. when its task is cancelled.
final class WakeupPipe: Sendable {
    /// The end to poll for readability.
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws(SerialPortDiscoveryError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .udevUnavailable("could not create a pipe to wait with: \(errorText(errno))") }
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

    /// Wakes the waiter; further calls change nothing.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Whether ``signal()`` has been called.
    var isSignalled: Bool {
        var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN) != 0
    }
}
