import SMP

/// What a SUIT upgrade learns from the device before it plans: MCUmgr parameters, the
/// bootloader, and each manifest role's state.
public struct SUITDeviceState: Sendable, Hashable {
    /// One role and its state.
    public struct Manifest: Sendable, Hashable {
        /// The role.
        public var role: SUITManifestRole
        /// What the device reports for it.
        public var state: SUITManifestState

        /// Creates an entry.
        public init(role: SUITManifestRole, state: SUITManifestState) {
            self.role = role
            self.state = state
        }
    }

    /// Buffer size and count (or the transport's assumed ones).
    public var parameters: MCUmgrParameters
    /// The bootloader's name (`"SUIT"`), nil when the device does not report it.
    public var bootloaderName: String?
    /// The manifests, in the device's order.
    public var manifests: [Manifest]

    /// Creates a snapshot.
    public init(parameters: MCUmgrParameters, bootloaderName: String?, manifests: [Manifest]) {
        self.parameters = parameters
        self.bootloaderName = bootloaderName
        self.manifests = manifests
    }

    /// Reads every manifest role's state (SUIT commands 0 and 1).
    public static func readManifests(from client: SMPClient) async throws(SMPError) -> [Manifest] {
        var manifests: [Manifest] = []
        for role in try await client.send(SUITManifestList()) {
            manifests.append(Manifest(role: role, state: try await client.send(SUITManifestStateRead(role: role))))
        }
        return manifests
    }

    /// The manifest that reports this digest, if any.
    public func manifest(withDigest digest: [UInt8]) -> Manifest? {
        manifests.first { $0.state.digest == digest }
    }
}
