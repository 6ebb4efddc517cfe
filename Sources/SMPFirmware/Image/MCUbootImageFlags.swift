/// The `IMAGE_F_*` flags of an MCUboot image header (`ih_flags`).
public struct MCUbootImageFlags: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The raw `ih_flags` value.
    public let rawValue: UInt32

    /// Flags from a raw `ih_flags` value (unknown bits are kept).
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Position-independent (not supported by MCUboot).
    public static let pic = Self(rawValue: 0x0000_0001)
    /// The body is encrypted with AES-128-CTR.
    public static let encryptedAES128 = Self(rawValue: 0x0000_0004)
    /// The body is encrypted with AES-256-CTR.
    public static let encryptedAES256 = Self(rawValue: 0x0000_0008)
    /// Not bootable (a split-image application).
    public static let nonBootable = Self(rawValue: 0x0000_0010)
    /// Loaded into RAM at the load address before it runs.
    public static let ramLoad = Self(rawValue: 0x0000_0020)
    /// Linked for the flash address in the load address (DirectXIP slot binding).
    public static let romFixed = Self(rawValue: 0x0000_0100)
    /// The body is LZMA1 compressed.
    public static let compressedLZMA1 = Self(rawValue: 0x0000_0200)
    /// The body is LZMA2 compressed.
    public static let compressedLZMA2 = Self(rawValue: 0x0000_0400)
    /// The ARM-Thumb filter was applied before compression.
    public static let compressedARMThumbFilter = Self(rawValue: 0x0000_0800)

    /// Every known flag with its MCUboot name (without the `IMAGE_F_` prefix), in bit order.
    public static let named: [(flag: Self, name: String)] = [
        (.pic, "PIC"), (.encryptedAES128, "ENCRYPTED_AES128"), (.encryptedAES256, "ENCRYPTED_AES256"),
        (.nonBootable, "NON_BOOTABLE"), (.ramLoad, "RAM_LOAD"), (.romFixed, "ROM_FIXED"),
        (.compressedLZMA1, "COMPRESSED_LZMA1"), (.compressedLZMA2, "COMPRESSED_LZMA2"),
        (.compressedARMThumbFilter, "COMPRESSED_ARM_THUMB_FLT"),
    ]

    /// The names of the flags set; unknown bits as `0x…` values.
    public var names: [String] {
        var names = Self.named.filter { contains($0.flag) }.map(\.name)
        let unknown = rawValue & ~Self.named.reduce(0) { $0 | $1.flag.rawValue }
        for bit in 0..<32 where unknown & (1 << bit) != 0 { names.append(MCUbootHex.literal(UInt32(1) << bit, width: 8)) }
        return names
    }

    /// Whether the body is encrypted (AES-128 or AES-256).
    public var isEncrypted: Bool { !isDisjoint(with: [.encryptedAES128, .encryptedAES256]) }

    /// The names joined with `|`, or `none`.
    public var description: String { names.isEmpty ? "none" : names.joined(separator: "|") }
}
