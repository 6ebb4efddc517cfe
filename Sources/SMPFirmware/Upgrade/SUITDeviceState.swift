import SMP

/// What a SUIT upgrade learns from the device before it plans: MCUmgr parameters, the
/// bootloader, and each manifest role's state.
public struct SUITDeviceState: UpgradeDeviceState, Hashable {
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

        /// `app-root (0x20): sequence 3, version 1.0.0, digest 353d365fbc58c07a… (sha-256)`.
        public var summary: String {
            var parts: [String] = []
            if let sequence = state.sequenceNumber { parts.append("sequence \(sequence)") }
            if let version = state.versionText { parts.append("version \(version)") }
            if let digest = state.digest {
                parts.append("digest \(Hex.string(digest).prefix(16))…" + (state.digestAlgorithmName.map { " (\($0))" } ?? ""))
            }
            return "\(role): " + (parts.isEmpty ? "no state reported" : parts.joined(separator: ", "))
        }

        /// The role and its state as JSON members (as `suit manifests --json` prints them too).
        public var fields: [UpgradeField] {
            [
                UpgradeField("role", .uint(role.rawValue)), UpgradeField("roleName", role.name.map(UpgradeValue.string) ?? .null),
                UpgradeField("classId", .hex(state.classID)), UpgradeField("vendorId", .hex(state.vendorID)),
                UpgradeField("digest", .hex(state.digest)),
                UpgradeField("digestAlgorithm", state.digestAlgorithmName.map(UpgradeValue.string) ?? .null),
                UpgradeField("sequenceNumber", state.sequenceNumber.map(UpgradeValue.uint) ?? .null),
                UpgradeField("version", state.versionText.map(UpgradeValue.string) ?? .null),
                UpgradeField("downgradePreventionPolicy", state.downgradePreventionPolicy.map(UpgradeValue.uint) ?? .null),
                UpgradeField("independentUpdateabilityPolicy", state.independentUpdateabilityPolicy.map(UpgradeValue.uint) ?? .null),
                UpgradeField("signatureVerificationPolicy", state.signatureVerificationPolicy.map(UpgradeValue.uint) ?? .null),
                UpgradeField("signatureCheck", state.signatureCheck.map(UpgradeValue.uint) ?? .null),
            ]
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

    /// `SUIT; buffers 2 × 1024 bytes; app-root seq 3, …`.
    public var summary: String {
        let roles = manifests.map { manifest in
            "\(manifest.role.name ?? manifest.role.description) seq \(manifest.state.sequenceNumber.map(String.init) ?? "?")"
        }
        return "SUIT; \(parameters); " + roles.joined(separator: ", ")
    }

    /// The bootloader, the parameters and every manifest.
    public var fields: [UpgradeField] {
        [
            UpgradeField("bootloader", bootloaderName.map(UpgradeValue.string) ?? .null),
            UpgradeField("bufferSize", .uint(UInt64(parameters.bufferSize))), UpgradeField("bufferCount", .uint(UInt64(parameters.bufferCount))),
            UpgradeField("manifests", .array(manifests.map { .object($0.fields) })),
        ]
    }

    /// The manifest that reports this digest, if any.
    public func manifest(withDigest digest: [UInt8]) -> Manifest? {
        manifests.first { $0.state.digest == digest }
    }
}
