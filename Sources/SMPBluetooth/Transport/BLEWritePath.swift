#if canImport(Glibc)
import Glibc
#endif
import SMP

/// How requests reach the SMP characteristic.
public enum BLEWritePath: String, Sendable {
    /// A socket from `AcquireWrite`: one write command per datagram.
    case acquired = "AcquireWrite"
    /// `WriteValue` with type "command" for each fragment.
    case writeValue = "WriteValue"
}

/// How responses arrive from the SMP characteristic.
public enum BLENotifyPath: String, Sendable {
    /// A socket from `AcquireNotify`: one notification per datagram.
    case acquired = "AcquireNotify"
    /// `StartNotify`, each notification a PropertiesChanged(Value) signal.
    case propertiesChanged = "StartNotify"
}

/// Writes one fragment on an `AcquireWrite` socket, waiting while its buffer is full.
///
/// - Throws: the reason the socket failed (the link is gone).
func writeDatagram(_ fragment: ArraySlice<UInt8>, to descriptor: Int32) throws(BLELinkEnded) {
    while true {
        let sent = fragment.withUnsafeBytes { bytes in
            Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        if sent >= 0 { return }
        switch errno {
        case EINTR:
            continue
        case EAGAIN:
            var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&waiting, 1, 100)
        default:
            throw BLELinkEnded(reason: "writing to bluetoothd's socket failed: \(errorText(errno))")
        }
    }
}

/// Why the link ended, for the error the transport's stream finishes with.
struct BLELinkEnded: Error {
    var reason: String
}
