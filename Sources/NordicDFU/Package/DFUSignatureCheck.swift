import Crypto

/// The outcome of checking an image's init packet signature with a public key.
public enum DFUSignatureCheck: Sendable, Equatable, CustomStringConvertible {
    /// The signature is valid for the init command and the key.
    case verified
    /// The signature does not verify with the key: another key signed it, or the init command or
    /// signature was changed.
    case failed
    /// The init packet has no signature (a bootloader that requires one refuses it).
    case unsigned
    /// The signature's algorithm cannot be checked here (Ed25519, a legacy DFU 0.8 signature).
    case notChecked(String)

    /// Whether the check passed.
    public var isVerified: Bool { self == .verified }

    public var description: String {
        switch self {
        case .verified: return "verified"
        case .failed: return "FAILED: the signature does not match the key"
        case .unsigned: return "not signed"
        case .notChecked(let reason): return "not checked: \(reason)"
        }
    }
}

extension SecureInitPacket {
    /// Checks the signature over ``initCommandBytes`` with `key`: ECDSA P-256 with SHA-256, the
    /// signature stored as r and s (32 bytes each), each byte-reversed (pc-nrfutil `signing.py`).
    public func signatureCheck(with key: DFUPublicKey) -> DFUSignatureCheck {
        guard let signature else { return .unsigned }
        guard signature.type == .ecdsaP256SHA256 else { return .notChecked("\(signature.type) signatures are not supported") }
        let stored = signature.storedBytes
        guard stored.count == 64 else { return .failed }
        let raw = Array(stored[0..<32].reversed()) + Array(stored[32..<64].reversed())
        guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: raw) else { return .failed }
        return key.key.isValidSignature(ecdsa, for: initCommandBytes) ? .verified : .failed
    }
}

extension NordicDFUImage {
    /// Checks the image's init packet signature with `key`.
    public func signatureCheck(with key: DFUPublicKey) -> DFUSignatureCheck {
        switch initPacket {
        case .secure(let packet):
            return packet.signatureCheck(with: key)
        case .legacy(let packet):
            if case .sha256(_, _, _?) = packet.integrity { return .notChecked("legacy DFU 0.8 signatures are not supported") }
            return .unsigned
        case .none:
            return .unsigned
        }
    }
}
