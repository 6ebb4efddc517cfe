import CBOR
import SMP

/// The SUIT group (66) of a ``VirtualDevice``, as NCS's SUIT firmware update manager answers it
/// (docs/protocol/suit.md §14), with `rc` in every answer:
///
/// - manifest list and state (commands 0, 1) from ``SimulatedSUITConfiguration/manifests``;
/// - envelope upload (2): checked when complete (tag 107, SHA-256 manifest digest), then
///   processed at once, or on the `off 0 len 0` trigger when `defer_install` came with it;
/// - processing asks, one stream session at a time, for every `file://` resource the manifest
///   names (poll 3, upload 4); when none is left, the envelope is installed: the device resets,
///   and after the reset the updatable role reports the envelope's digest and sequence number;
/// - cache uploads (5) per partition, cleanup (6).
///
/// Wrong offsets are answered `rc` 1 with the expected `off`.
public struct SUITGroup: SimulatedGroup {
    /// How the group behaves.
    public let configuration: SimulatedSUITConfiguration
    /// The installed manifests, as manifest state reports them.
    public private(set) var manifests: [SimulatedSUITManifest]
    /// The cache images received, by partition.
    public internal(set) var caches: [UInt64: [UInt8]] = [:]
    /// The resources the device asked for, in order (URIs).
    public internal(set) var requestedResources: [String] = []
    /// The resources received, by URI.
    public internal(set) var receivedResources: [String: [UInt8]] = [:]
    /// How many envelopes were installed.
    public internal(set) var installCount = 0

    var envelopeUpload: SimulatedSUITTransfer?
    var deferInstall = false
    var cacheUpload: (partition: UInt64, transfer: SimulatedSUITTransfer?)?
    /// An envelope stored with `defer_install`, waiting for the trigger.
    var candidate: SimulatedEnvelope?
    var processing: SimulatedSUITProcessing?
    /// The envelope that takes effect at the next reset.
    var pendingInstall: SimulatedEnvelope?
    var nextSessionID: UInt64 = 1

    /// Creates the group.
    public init(configuration: SimulatedSUITConfiguration = SimulatedSUITConfiguration()) {
        self.configuration = configuration
        manifests = configuration.manifests
    }

    public var group: SMPGroup { .suit }

    public func implements(command: UInt8) -> Bool { command <= SUITCommandID.cleanup }

    public mutating func handle(
        _ request: SimulatedRequest, context: inout SimulatedDeviceContext
    ) throws(SimulatedError) -> CBORMap {
        switch (request.command, request.operation) {
        case (SUITCommandID.manifestList, .read):
            return ["rc": 0, "manifests": .array(manifests.map { .map(["role": .unsigned($0.role.rawValue)]) })]
        case (SUITCommandID.manifestState, .read):
            return try manifestState(request)
        case (SUITCommandID.envelopeUpload, .write):
            return try receiveEnvelope(request, context: &context)
        case (SUITCommandID.poll, .read):
            return poll()
        case (SUITCommandID.resourceUpload, .write):
            return try receiveResource(request, context: &context)
        case (SUITCommandID.cacheUpload, .write):
            return try receiveCache(request, now: context.uptime)
        case (SUITCommandID.cleanup, .write):
            cleanUp()
            caches = [:]
            return ["rc": 0]
        default:
            throw .notSupported
        }
    }

    /// A reset loses every upload and processing in progress; an installed envelope takes effect.
    public mutating func deviceDidReset(context: SimulatedDeviceContext) {
        cleanUp()
        guard let installed = pendingInstall else { return }
        pendingInstall = nil
        guard let index = manifests.firstIndex(where: { $0.role == configuration.updatableRole }) else { return }
        manifests[index].state.digest = installed.digest
        manifests[index].state.digestAlgorithm = -16
        if let sequence = installed.sequenceNumber { manifests[index].state.sequenceNumber = sequence }
    }

    private mutating func cleanUp() {
        envelopeUpload = nil
        cacheUpload = nil
        candidate = nil
        processing = nil
    }

    private func manifestState(_ request: SimulatedRequest) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["role": .unsigned])
        guard let role = fields.unsigned("role"), let manifest = manifests.first(where: { $0.role.rawValue == role }) else {
            throw .invalidValue
        }
        let state = manifest.state
        var map: CBORMap = ["rc": 0]
        if let value = state.classID { map.append(key: "class_id", value: .bytes(value)) }
        if let value = state.vendorID { map.append(key: "vendor_id", value: .bytes(value)) }
        if let value = state.downgradePreventionPolicy { map.append(key: "downgrade_prevention_policy", value: .unsigned(value)) }
        if let value = state.independentUpdateabilityPolicy { map.append(key: "independent_updateability_policy", value: .unsigned(value)) }
        if let value = state.signatureVerificationPolicy { map.append(key: "signature_verification_policy", value: .unsigned(value)) }
        if let value = state.digest { map.append(key: "digest", value: .bytes(value)) }
        if let value = state.digestAlgorithm { map.append(key: "digest_algorithm", value: .int(value)) }
        if let value = state.signatureCheck { map.append(key: "signature_check", value: .unsigned(value)) }
        if let value = state.sequenceNumber { map.append(key: "sequence_number", value: .unsigned(value)) }
        if let value = state.semanticVersion { map.append(key: "semantic_version", value: .array(value.map(CBOR.int))) }
        return map
    }
}
