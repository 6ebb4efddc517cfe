import CBOR
import SMP

/// How `smpctl groups` learns about a group on a device without enumeration: a read (or an
/// empty command) that changes nothing on the device. Any answer but rc 8 means the device
/// has the group.
enum GroupProbe {
    /// The harmless request for each known group; groups missing here have no harmless command
    /// (crash, split, Zephyr basic's storage erase…) and are not probed.
    static let requests: [(group: SMPGroup, request: SMPRequest)] = [
        (.os, SMPRequest(group: .os, command: OSCommandID.parameters, operation: .read, name: "probe os")),
        (.image, SMPRequest(group: .image, command: ImageCommandID.state, operation: .read, name: "probe image")),
        (.statistics, SMPRequest(group: .statistics, command: StatisticsCommandID.list, operation: .read, name: "probe statistics")),
        (.settings, SMPRequest(group: .settings, command: SettingsCommandID.readWrite, operation: .read, payload: ["name": .text("")], name: "probe settings")),
        (.log, SMPRequest(group: .log, command: LogCommandID.logList, operation: .read, name: "probe log")),
        (.run, SMPRequest(group: .run, command: RunCommandID.list, operation: .read, name: "probe run")),
        (.fileSystem, SMPRequest(group: .fileSystem, command: FileSystemCommandID.status, operation: .read, payload: ["name": .text("/")], name: "probe fs")),
        (.shell, SMPRequest(group: .shell, command: 0, operation: .write, payload: ["argv": .array([])], name: "probe shell")),
        (.suit, SMPRequest(group: .suit, command: SUITCommandID.manifestList, operation: .read, name: "probe suit")),
    ]

    /// Whether the device has the group: true for any answer but rc 8 (a group error, another rc…).
    static func isSupported(_ request: SMPRequest, client: SMPClient) async throws(SMPError) -> Bool {
        let response = try await client.exchange(request)
        guard let error = response.deviceError else { return true }
        if case .returnCode(let code, _, _) = error, code == .notSupported { return false }
        return true
    }
}
