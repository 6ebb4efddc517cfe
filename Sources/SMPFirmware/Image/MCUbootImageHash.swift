import Crypto

/// A hash algorithm of MCUboot's image-hash TLVs.
public enum MCUbootHashAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// SHA-256: the default, and the only hash Zephyr's img_mgmt reads.
    case sha256 = "SHA-256"
    /// SHA-384: imgtool's choice for ECDSA P-384 keys.
    case sha384 = "SHA-384"
    /// SHA-512: optional with Ed25519.
    case sha512 = "SHA-512"

    /// The TLV type holding this hash.
    public var tlvType: MCUbootTLVType {
        switch self {
        case .sha256: return .sha256
        case .sha384: return .sha384
        case .sha512: return .sha512
        }
    }

    /// The digest size in bytes.
    public var digestSize: Int {
        switch self {
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }

    /// The algorithm whose hash a TLV type holds, if any.
    public init?(tlvType: MCUbootTLVType) {
        guard let algorithm = Self.allCases.first(where: { $0.tlvType == tlvType }) else { return nil }
        self = algorithm
    }

    /// The digest of `bytes`.
    public func digest(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        switch self {
        case .sha256: return Array(SHA256.hash(data: bytes))
        case .sha384: return Array(SHA384.hash(data: bytes))
        case .sha512: return Array(SHA512.hash(data: bytes))
        }
    }
}

/// A hash TLV compared with the hash recomputed over header, body and protected TLV area.
public struct MCUbootHashCheck: Sendable, Hashable {
    /// The outcome of the comparison.
    public enum Status: String, Sendable, Hashable {
        /// The recomputed hash equals the TLV.
        case valid
        /// The recomputed hash differs: the image is corrupt.
        case mismatch
        /// The body is encrypted and the hash covers the plaintext, so it cannot be recomputed.
        case encrypted
    }

    /// The algorithm.
    public var algorithm: MCUbootHashAlgorithm
    /// The file offset of the hash TLV.
    public var offset: Int
    /// The hash stored in the TLV.
    public var expected: [UInt8]
    /// The hash of bytes `[0, headerSize + imageSize + protectedTLVSize)`.
    public var computed: [UInt8]
    /// The outcome.
    public var status: Status
}
