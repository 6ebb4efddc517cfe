#if canImport(Glibc)
import Glibc
#endif
import DescriptorIO
import SMP

/// The sockets bluetoothd hands out for `AcquireNotify` (one notification per SEQPACKET datagram)
/// and `AcquireWrite` (one write command per datagram), each owned by a ``DescriptorChannel``.
enum BLESocketChannel {
    /// A channel owning `descriptor`: read for notifications, or only written (a hang-up still
    /// ends it). The descriptor is closed when this throws.
    static func open(_ descriptor: Int32, reading: Bool, endpoint: String) throws(SMPTransportError) -> DescriptorChannel {
        do {
            return try DescriptorChannel(owning: descriptor, readMode: reading ? .continuous : .never)
        } catch {
            throw SMPTransportError(.io, "\(endpoint): cannot use bluetoothd's socket: \(error.detail)")
        }
    }

    /// Why the notification socket ended, for the link-lost error.
    static func reason(_ end: DescriptorChannel.End) -> String {
        switch end {
        case .endOfFile, .hungUp: "bluetoothd closed the notification socket"
        case .readFailed(let code): "reading notifications failed: \(errorText(code))"
        case .pollFailed(let code): "poll failed: \(errorText(code))"
        }
    }

    /// Why a write on the `AcquireWrite` socket failed, for the link-lost error.
    static func reason(_ failure: DescriptorChannel.WriteFailure) -> String {
        switch failure {
        case .failed(let code): "writing to bluetoothd's socket failed: \(errorText(code))"
        case .ended, .closed, .stalled: "bluetoothd closed the write socket"
        }
    }
}

/// `strerror` as a Swift string.
func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
