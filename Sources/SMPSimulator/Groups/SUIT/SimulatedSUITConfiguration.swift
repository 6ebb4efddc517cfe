import SMP

/// One manifest role of a simulated SUIT device and what its installed manifest reports.
public struct SimulatedSUITManifest: Sendable, Hashable {
    /// The role.
    public var role: SUITManifestRole
    /// What manifest state (SUIT command 1) answers for it.
    public var state: SUITManifestState

    /// Creates a manifest.
    public init(role: SUITManifestRole, state: SUITManifestState) {
        self.role = role
        self.state = state
    }
}

/// The SUIT group (66) of a ``VirtualDevice`` (docs/protocol/suit.md §14): its manifests, the cache partitions, what
/// it accepts, and which role an installed envelope replaces. Every answer carries `rc`, as
/// NCS's legacy-rc behaviour has it.
public struct SimulatedSUITConfiguration: Sendable, Hashable {
    /// The installed manifests, in the order the manifest list reports them.
    public var manifests: [SimulatedSUITManifest]
    /// The role whose state an installed envelope replaces (digest, sequence number).
    public var updatableRole: SUITManifestRole
    /// The DFU cache partitions (`target_id` of cache uploads).
    public var cachePartitions: [UInt64]
    /// The largest envelope, cache image or resource the device takes (bytes).
    public var maximumUploadSize: Int
    /// How long the device waits for the next chunk of an upload before it abandons it (NCS
    /// about 5 s); nil waits for ever.
    public var interChunkTimeout: Duration?

    /// Creates a configuration.
    public init(
        manifests: [SimulatedSUITManifest] = Self.nordicDefaults, updatableRole: SUITManifestRole = .applicationRoot,
        cachePartitions: [UInt64] = [1, 2], maximumUploadSize: Int = 1 << 20, interChunkTimeout: Duration? = nil
    ) {
        self.manifests = manifests
        self.updatableRole = updatableRole
        self.cachePartitions = cachePartitions
        self.maximumUploadSize = maximumUploadSize
        self.interChunkTimeout = interChunkTimeout
    }

    /// An nRF54H20-like set: the Nordic top manifest, the application root and one local
    /// application manifest, each at sequence number 1 and version 1.0.0 with a made-up digest.
    public static var nordicDefaults: [SimulatedSUITManifest] {
        [SUITManifestRole.secureTop, .applicationRoot, .applicationLocal1].enumerated().map { index, role in
            SimulatedSUITManifest(role: role, state: SUITManifestState(
                classID: Array(repeating: UInt8(0x10 + index), count: 16), vendorID: Array(repeating: 0x76, count: 16),
                downgradePreventionPolicy: 1, independentUpdateabilityPolicy: 1, signatureVerificationPolicy: 2,
                digest: Array(repeating: UInt8(0xD0 + index), count: 32), digestAlgorithm: -16, signatureCheck: 2,
                sequenceNumber: 1, semanticVersion: [1, 0, 0]))
        }
    }
}
