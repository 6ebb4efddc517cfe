/// The signature algorithm of a signature TLV.
public enum MCUbootSignatureType: String, Sendable, Hashable {
    /// RSA-2048 PSS (`RSA2048_PSS`).
    case rsa2048 = "RSA-2048"
    /// RSA-3072 PSS (`RSA3072_PSS`).
    case rsa3072 = "RSA-3072"
    /// ECDSA P-256 (`ECDSA_SIG` with a SHA-256 image hash).
    case ecdsaP256 = "ECDSA-P256"
    /// ECDSA P-384 (`ECDSA_SIG` with a SHA-384 image hash).
    case ecdsaP384 = "ECDSA-P384"
    /// Obsolete; MCUboot no longer supports it.
    case ecdsa224 = "ECDSA-224"
    /// Ed25519 (`ED25519`).
    case ed25519 = "ED25519"
}

/// A signature TLV of an image.
public struct MCUbootSignature: Sendable, Hashable {
    /// The algorithm.
    public var type: MCUbootSignatureType
    /// The file offset of the TLV.
    public var offset: Int
    /// The signature bytes (DER for ECDSA).
    public var value: [UInt8]
}

/// How an image names its signing key.
public enum MCUbootSigningKey: Sendable, Hashable {
    /// `KEYHASH`: the hash of the public key.
    case keyHash([UInt8])
    /// `PUBKEY`: the full public key.
    case publicKey([UInt8])
}

extension MCUbootSignatureType {
    /// The algorithm of a signature TLV type; ECDSA is P-384 when the image is hashed with SHA-384
    /// (imgtool pairs them), else P-256.
    init?(tlvType: MCUbootTLVType, hashAlgorithms: [MCUbootHashAlgorithm]) {
        switch tlvType {
        case .rsa2048PSS: self = .rsa2048
        case .rsa3072PSS: self = .rsa3072
        case .ecdsa224: self = .ecdsa224
        case .ecdsaSignature: self = hashAlgorithms.contains(.sha384) ? .ecdsaP384 : .ecdsaP256
        case .ed25519: self = .ed25519
        default: return nil
        }
    }
}
