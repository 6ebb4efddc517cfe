import CBOR
import Crypto

/// A SUIT envelope file (CBOR tag 107 around a map), decoded strictly and only as far as needed
/// to describe it: nothing here verifies signatures or claims the manifest is valid.
public struct SUITEnvelope: Sendable, Equatable {
    /// The digest the authentication wrapper (key 2) carries: the manifest digest devices report.
    public struct Digest: Sendable, Equatable {
        /// The COSE algorithm id: -16 SHA-256, -18 SHAKE128, -43 SHA-384, -44 SHA-512, -45 SHAKE256.
        public var algorithm: Int64
        /// The digest bytes.
        public var bytes: [UInt8]

        /// The algorithm's name, or nil for an id not listed above.
        public var algorithmName: String? {
            [-16: "sha-256", -18: "shake128", -43: "sha-384", -44: "sha-512", -45: "shake256"][algorithm]
        }
    }

    /// The envelope file's bytes.
    public var bytes: [UInt8]
    /// SHA-256 of the whole file (the upload's `sha`).
    public var sha256: [UInt8]
    /// The manifest digest from the authentication wrapper, if the envelope has one.
    public var manifestDigest: Digest?
    /// The manifest's sequence number (manifest key 2), if the manifest could be read that far.
    public var sequenceNumber: UInt64?
    /// The component identifiers of the manifest's common section (each a list of byte strings).
    public var componentIDs: [[[UInt8]]]

    /// The CBOR tag of a SUIT envelope.
    public static let tag: UInt64 = 107

    /// Whether `bytes` start like a SUIT envelope (`D8 6B`).
    public static func hasSignature(_ bytes: some Collection<UInt8>) -> Bool { bytes.starts(with: [0xD8, 0x6B]) }

    /// Decodes an envelope. The outer structure must be exactly tag 107 around a map with no
    /// trailing bytes; keys 2 (authentication wrapper) and 3 (manifest), when present, must have
    /// the shapes the SUIT manifest format gives them.
    public init(bytes: [UInt8]) throws(FirmwarePackageError) {
        let root = try Self.decode(bytes, what: "the envelope")
        guard case .tagged(Self.tag, let body) = root else { throw .invalidSUITEnvelope("not CBOR tag 107 (SUIT_Envelope)") }
        guard case .map(let envelope) = body else { throw .invalidSUITEnvelope("tag 107 does not hold a map but \(body.typeName)") }
        self.bytes = bytes
        sha256 = Array(SHA256.hash(data: bytes))
        manifestDigest = try envelope[.unsigned(2)].map { (wrapper) throws(FirmwarePackageError) in try Self.digest(fromAuthenticationWrapper: wrapper) }
        sequenceNumber = nil
        componentIDs = []
        if let manifestItem = envelope[.unsigned(3)] {
            let manifest = try Self.unwrapMap(manifestItem, what: "the manifest (key 3)")
            sequenceNumber = try manifest[.unsigned(2)].map { (item) throws(FirmwarePackageError) in
                guard let number = item.uint64Value, case .unsigned = item else {
                    let found = if case .negative = item { "a negative integer" } else { item.typeName }
                    throw .invalidSUITEnvelope("the manifest sequence number is \(found), not an unsigned integer")
                }
                return number
            }
            if let commonItem = manifest[.unsigned(3)] {
                let common = try Self.unwrapMap(commonItem, what: "the manifest's common section (key 3)")
                componentIDs = try common[.unsigned(2)].map(Self.components) ?? []
            }
        }
    }

    private static func decode(_ bytes: [UInt8], what: String) throws(FirmwarePackageError) -> CBOR {
        do {
            return try CBORDecoder(maximumDepth: 16, allowTrailingBytes: false, rejectDuplicateKeys: true).decode(bytes)
        } catch {
            throw .invalidSUITEnvelope("\(what) is not valid CBOR: \(error)")
        }
    }

    /// A byte string holding one encoded CBOR item.
    private static func unwrap(_ item: CBOR, what: String) throws(FirmwarePackageError) -> CBOR {
        guard case .bytes(let inner) = item else { throw .invalidSUITEnvelope("\(what) is \(item.typeName), not a byte string") }
        return try decode(inner, what: what)
    }

    private static func unwrapMap(_ item: CBOR, what: String) throws(FirmwarePackageError) -> CBORMap {
        let inner = try unwrap(item, what: what)
        guard case .map(let map) = inner else { throw .invalidSUITEnvelope("\(what) holds \(inner.typeName), not a map") }
        return map
    }

    /// Key 2: bstr → array whose first element is bstr → `[algorithm, digest]`.
    private static func digest(fromAuthenticationWrapper item: CBOR) throws(FirmwarePackageError) -> Digest {
        let what = "the authentication wrapper (key 2)"
        let wrapper = try unwrap(item, what: what)
        guard case .array(let blocks) = wrapper, let first = blocks.first else {
            throw .invalidSUITEnvelope("\(what) holds \(wrapper.typeName), not a non-empty array")
        }
        let pair = try unwrap(first, what: "the digest in \(what)")
        guard case .array(let fields) = pair, fields.count == 2, let algorithm = fields[0].int64Value, case .bytes(let digest) = fields[1] else {
            throw .invalidSUITEnvelope("the digest in \(what) is not [algorithm, bytes]")
        }
        return Digest(algorithm: algorithm, bytes: digest)
    }

    /// Common key 2: an array of component identifiers, each an array of byte strings.
    private static func components(_ item: CBOR) throws(FirmwarePackageError) -> [[[UInt8]]] {
        guard case .array(let list) = item else { throw .invalidSUITEnvelope("the component list is \(item.typeName), not an array") }
        var result: [[[UInt8]]] = []
        for component in list {
            guard case .array(let parts) = component else { throw .invalidSUITEnvelope("a component identifier is \(component.typeName), not an array") }
            let bytes = parts.compactMap(\.bytesValue)
            guard bytes.count == parts.count else { throw .invalidSUITEnvelope("a component identifier holds something other than byte strings") }
            result.append(bytes)
        }
        return result
    }
}
