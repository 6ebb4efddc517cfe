import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SMP

/// Reads notifications from an `AcquireNotify` socket (one SEQPACKET datagram each) on its own
/// thread, until the socket ends (link loss) or ``stop()``. It owns and closes the descriptor.
final class BLENotifyReader: Sendable {
    private let descriptor: Int32
    private let wakeup: WakeupPipe

    /// Starts reading; `payload` gets each notification, `ended` the reason the socket ended
    /// (not called after ``stop()``).
    init?(descriptor: Int32, payload: @escaping @Sendable ([UInt8]) -> Void, ended: @escaping @Sendable (String) -> Void) {
        guard let wakeup = WakeupPipe() else { return nil }
        self.descriptor = descriptor
        self.wakeup = wakeup
        let thread = Thread { [descriptor, wakeup] in
            Self.run(descriptor: descriptor, wakeup: wakeup, payload: payload, ended: ended)
        }
        thread.name = "BLE notifications"
        thread.start()
    }

    /// Ends the reading thread, which closes the descriptor.
    func stop() {
        wakeup.signal()
    }

    private static func run(
        descriptor: Int32, wakeup: WakeupPipe, payload: @Sendable ([UInt8]) -> Void, ended: @Sendable (String) -> Void
    ) {
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return ended("poll failed: \(errorText(errno))") }
            if descriptors[1].revents != 0 { return }
            guard descriptors[0].revents != 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 {
                payload(Array(buffer[..<count]))
            } else if count == 0 {
                return ended("bluetoothd closed the notification socket")
            } else if errno != EAGAIN && errno != EINTR {
                return ended("reading notifications failed: \(errorText(errno))")
            }
        }
    }
}

/// `strerror` as a Swift string.
func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
