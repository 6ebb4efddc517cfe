import SMP
import Synchronization

/// The connections an upgrade opened across resets, so that their retransmissions count in the
/// device's retries (the upgrade closes them itself; their statistics stay readable).
final class OpenedClients: Sendable {
    private let clients = Mutex<[SMPClient]>([])

    /// Remembers a connection the upgrade opened.
    func append(_ client: SMPClient) {
        clients.withLock { $0.append(client) }
    }

    /// Adds every remembered connection's retransmissions to `recorder`'s retries.
    func addRetries(to recorder: DeviceRecorder) async {
        for client in clients.withLock({ $0 }) {
            recorder.retries(await client.statistics.retransmissions)
        }
    }
}
