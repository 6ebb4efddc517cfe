import CBOR

/// What a SUIT device reports about one role's installed manifest (SUIT command 1). Every field
/// is optional: the device leaves out what it does not know.
public struct SUITManifestState: Sendable, Hashable {
    /// The manifest's class ID (a 16-byte UUID).
    public var classID: [UInt8]?
    /// The manifest's vendor ID (a 16-byte UUID).
    public var vendorID: [UInt8]?
    /// The downgrade prevention policy (NCS `suit_downgrade_prevention_policy`).
    public var downgradePreventionPolicy: UInt64?
    /// The independent updateability policy.
    public var independentUpdateabilityPolicy: UInt64?
    /// The signature verification policy.
    public var signatureVerificationPolicy: UInt64?
    /// The installed manifest's digest (what the envelope's authentication wrapper carries).
    public var digest: [UInt8]?
    /// The digest's COSE algorithm (-16 SHA-256, -44 SHA-512).
    public var digestAlgorithm: Int64?
    /// The result of the signature check.
    public var signatureCheck: UInt64?
    /// The installed manifest's sequence number.
    public var sequenceNumber: UInt64?
    /// The semantic version, as the device encodes it (`[major, minor, patch, …]`).
    public var semanticVersion: [Int64]?

    /// Creates a state.
    public init(
        classID: [UInt8]? = nil, vendorID: [UInt8]? = nil, downgradePreventionPolicy: UInt64? = nil,
        independentUpdateabilityPolicy: UInt64? = nil, signatureVerificationPolicy: UInt64? = nil, digest: [UInt8]? = nil,
        digestAlgorithm: Int64? = nil, signatureCheck: UInt64? = nil, sequenceNumber: UInt64? = nil, semanticVersion: [Int64]? = nil
    ) {
        self.classID = classID
        self.vendorID = vendorID
        self.downgradePreventionPolicy = downgradePreventionPolicy
        self.independentUpdateabilityPolicy = independentUpdateabilityPolicy
        self.signatureVerificationPolicy = signatureVerificationPolicy
        self.digest = digest
        self.digestAlgorithm = digestAlgorithm
        self.signatureCheck = signatureCheck
        self.sequenceNumber = sequenceNumber
        self.semanticVersion = semanticVersion
    }

    /// `1.2.3`, with further elements (pre-release) after a dash, or nil.
    public var versionText: String? {
        guard let semanticVersion, !semanticVersion.isEmpty else { return nil }
        let release = semanticVersion.prefix(3).map(String.init).joined(separator: ".")
        let rest = semanticVersion.dropFirst(3).map(String.init)
        return rest.isEmpty ? release : release + "-" + rest.joined(separator: ".")
    }

    /// The digest algorithm's name (`sha-256`…), or the number.
    public var digestAlgorithmName: String? {
        digestAlgorithm.map { [-16: "sha-256", -18: "shake128", -43: "sha-384", -44: "sha-512", -45: "shake256"][$0] ?? String($0) }
    }
}

/// Reads one role's manifest state (SUIT command 1, read).
public struct SUITManifestStateRead: SMPCommand {
    /// The role asked about.
    public var role: SUITManifestRole

    /// Creates the request.
    public init(role: SUITManifestRole) { self.role = role }

    public var request: SMPRequest {
        SMPRequest(
            group: .suit, command: SUITCommandID.manifestState, operation: .read, payload: ["role": .unsigned(role.rawValue)],
            name: "suit manifest state")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> SUITManifestState {
        SUITManifestState(
            classID: try Self.optionalBytes(payload, "class_id"), vendorID: try Self.optionalBytes(payload, "vendor_id"),
            downgradePreventionPolicy: try Self.optionalUnsigned(payload, "downgrade_prevention_policy"),
            independentUpdateabilityPolicy: try Self.optionalUnsigned(payload, "independent_updateability_policy"),
            signatureVerificationPolicy: try Self.optionalUnsigned(payload, "signature_verification_policy"),
            digest: try Self.optionalBytes(payload, "digest"), digestAlgorithm: try payload.optionalInteger("digest_algorithm"),
            signatureCheck: try Self.optionalUnsigned(payload, "signature_check"),
            sequenceNumber: try Self.optionalUnsigned(payload, "sequence_number"),
            semanticVersion: try Self.version(payload))
    }

    private static func optionalBytes(_ payload: CBORMap, _ key: String) throws(SMPResponseError) -> [UInt8]? {
        guard let value = payload[key] else { return nil }
        guard let bytes = value.bytesValue else { throw SMPResponseError("field \"\(key)\" should be a byte string but is \(value.typeName)") }
        return bytes
    }

    private static func optionalUnsigned(_ payload: CBORMap, _ key: String) throws(SMPResponseError) -> UInt64? {
        guard payload[key] != nil else { return nil }
        return try payload.unsigned(key)
    }

    private static func version(_ payload: CBORMap) throws(SMPResponseError) -> [Int64]? {
        guard let value = payload["semantic_version"] else { return nil }
        guard case .array(let parts) = value else { throw SMPResponseError("field \"semantic_version\" should be an array but is \(value.typeName)") }
        let numbers = parts.compactMap(\.int64Value)
        guard numbers.count == parts.count else { throw SMPResponseError("field \"semantic_version\" should hold integers") }
        return numbers
    }
}
