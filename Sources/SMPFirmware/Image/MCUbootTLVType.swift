/// The type of an MCUboot TLV entry (`it_type`); unknown types keep their number.
public struct MCUbootTLVType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The type number.
    public let rawValue: UInt16

    /// A type from its number.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Hash of the public key used to sign.
    public static let keyHash = Self(rawValue: 0x01)
    /// The full public key.
    public static let publicKey = Self(rawValue: 0x02)
    /// SHA-256 image hash (32 bytes): the hash devices report and match on.
    public static let sha256 = Self(rawValue: 0x10)
    /// SHA-384 image hash (48 bytes).
    public static let sha384 = Self(rawValue: 0x11)
    /// SHA-512 image hash (64 bytes).
    public static let sha512 = Self(rawValue: 0x12)
    /// RSA-2048 PSS signature.
    public static let rsa2048PSS = Self(rawValue: 0x20)
    /// ECDSA-224 signature (obsolete).
    public static let ecdsa224 = Self(rawValue: 0x21)
    /// ECDSA (P-256 or P-384) signature, DER encoded.
    public static let ecdsaSignature = Self(rawValue: 0x22)
    /// RSA-3072 PSS signature.
    public static let rsa3072PSS = Self(rawValue: 0x23)
    /// Ed25519 signature.
    public static let ed25519 = Self(rawValue: 0x24)
    /// Marker: the signature is over the image itself, so there is no hash TLV.
    public static let signaturePure = Self(rawValue: 0x25)
    /// AES key encrypted with RSA-OAEP-2048.
    public static let encRSA2048 = Self(rawValue: 0x30)
    /// AES key wrapped with AES-KW.
    public static let encKW = Self(rawValue: 0x31)
    /// AES key via ECIES-P256.
    public static let encEC256 = Self(rawValue: 0x32)
    /// AES key via ECIES-X25519.
    public static let encX25519 = Self(rawValue: 0x33)
    /// AES key via ECIES-X25519 with SHA-512.
    public static let encX25519SHA512 = Self(rawValue: 0x34)
    /// Dependency on another image.
    public static let dependency = Self(rawValue: 0x40)
    /// Security counter.
    public static let securityCounter = Self(rawValue: 0x50)
    /// CBOR measured-boot record.
    public static let bootRecord = Self(rawValue: 0x60)
    /// Size of the decompressed image.
    public static let decompressedSize = Self(rawValue: 0x70)
    /// Hash of the decompressed image.
    public static let decompressedSHA = Self(rawValue: 0x71)
    /// Signature of the decompressed image.
    public static let decompressedSignature = Self(rawValue: 0x72)
    /// Compressed and decrypted size.
    public static let compressedDecryptedSize = Self(rawValue: 0x73)
    /// Vendor UUID.
    public static let uuidVendor = Self(rawValue: 0x74)
    /// Device-class UUID.
    public static let uuidClass = Self(rawValue: 0x75)

    private static let names: [UInt16: String] = [
        0x01: "KEYHASH", 0x02: "PUBKEY", 0x10: "SHA256", 0x11: "SHA384", 0x12: "SHA512",
        0x20: "RSA2048_PSS", 0x21: "ECDSA224", 0x22: "ECDSA_SIG", 0x23: "RSA3072_PSS", 0x24: "ED25519",
        0x25: "SIG_PURE", 0x30: "ENC_RSA2048", 0x31: "ENC_KW", 0x32: "ENC_EC256", 0x33: "ENC_X25519",
        0x34: "ENC_X25519_SHA512", 0x40: "DEPENDENCY", 0x50: "SEC_CNT", 0x60: "BOOT_RECORD",
        0x70: "DECOMP_SIZE", 0x71: "DECOMP_SHA", 0x72: "DECOMP_SIGNATURE", 0x73: "COMP_DEC_SIZE",
        0x74: "UUID_VID", 0x75: "UUID_CID",
    ]

    /// Whether the type is in a vendor-reserved range (`0xXXA0`–`0xXXFF`, except `0xFFFF`).
    public var isVendor: Bool { rawValue & 0xff >= 0xa0 && rawValue != 0xffff }

    /// The MCUboot name (`SHA256`, `ECDSA_SIG` …), `VENDOR_0x…` for vendor types, nil for unknown ones.
    public var name: String? {
        if let name = Self.names[rawValue] { return name }
        return isVendor ? "VENDOR_" + MCUbootHex.literal(rawValue, width: 4) : nil
    }

    /// The name, or the number (`0x0099`) of an unknown type.
    public var description: String { name ?? MCUbootHex.literal(rawValue, width: 4) }
}
