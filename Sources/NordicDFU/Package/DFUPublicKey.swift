import Crypto
import SMPFirmware

/// The public key Secure DFU init packets are checked with: an ECDSA P-256 key, as
/// `nrfutil keys display --key pk --format pem` writes it. Not `Sendable`: swift-crypto's key
/// type is not; check signatures where the key was read.
public struct DFUPublicKey {
    /// The key.
    public var key: P256.Signing.PublicKey

    /// Wraps a key.
    public init(_ key: P256.Signing.PublicKey) { self.key = key }

    /// Reads a PEM public key (`BEGIN PUBLIC KEY`); a private key (`BEGIN EC PRIVATE KEY` or
    /// `BEGIN PRIVATE KEY`, as `nrfutil keys generate` writes it) gives its public half.
    /// `source` (a path) is used in errors.
    public init(pem: String, source: String) throws(NordicDFUPackageError) {
        if let key = try? P256.Signing.PublicKey(pemRepresentation: pem) {
            self.key = key
        } else if let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
            self.key = key.publicKey
        } else {
            let reason = pem.contains("-----BEGIN") ? "not an ECDSA P-256 key in PEM" : "not PEM (no -----BEGIN line)"
            throw .invalidKey(source: source, reason: reason)
        }
    }

    /// Reads the PEM file at `path` (at most 64 KiB).
    public init(contentsOf path: String) throws(NordicDFUPackageError) {
        let bytes: [UInt8]
        do {
            bytes = try FirmwarePackage.readFile(path, limits: PackageLimits(maximumFileSize: 64 << 10))
        } catch {
            throw .archive(error)
        }
        try self.init(pem: String(decoding: bytes, as: UTF8.self), source: path)
    }
}
