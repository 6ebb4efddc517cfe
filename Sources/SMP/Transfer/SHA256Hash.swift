import Crypto

/// SHA-256 of a whole file: the `sha` of an upload (what the device checks the written data
/// against) and the simulator's `match`. Computed by swift-crypto (BoringSSL).
public enum SHA256Hash {
    /// The 32-byte digest of `message`.
    public static func digest(_ message: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: message))
    }
}
