import CBOR
import SMP

/// How `smpctl groups` learns about a group on a device without enumeration: a read (or an
/// empty command) that changes nothing on the device. Any answer but rc 8 means the device
/// has the group.
enum GroupProbe {
    /// The harmless request for each known group (its descriptor's ``SMPGroupDescriptor/probe``);
    /// groups without one have no harmless command (crash, split, Zephyr basic's storage erase…)
    /// and are not probed.
    static var requests: [(group: SMPGroup, request: SMPRequest)] {
        SMPGroupCatalog.all.compactMap { descriptor in descriptor.probe.map { (descriptor.group, $0) } }
    }

    /// Whether the device has the group: true for any answer but rc 8 (a group error, another rc…).
    static func isSupported(_ request: SMPRequest, client: SMPClient) async throws(SMPError) -> Bool {
        let response = try await client.exchange(request)
        guard let error = response.deviceError else { return true }
        if case .returnCode(let code, _, _) = error, code == .notSupported { return false }
        return true
    }
}
