/// The 32-byte little-endian MCUboot image header.
public struct MCUbootImageHeader: Sendable, Hashable {
    /// `IMAGE_MAGIC`, the magic of every supported image.
    public static let magic: UInt32 = 0x96f3_b83d
    /// The legacy v1 magic, recognised but not supported.
    public static let legacyMagic: UInt32 = 0x96f3_b83c
    /// The size of the header structure (`ih_hdr_size` may be larger: the rest is padding).
    public static let size = 32

    /// `ih_load_addr`: the RAM address (RAM_LOAD) or flash address (ROM_FIXED), else 0.
    public var loadAddress: UInt32
    /// `ih_hdr_size`: the offset of the image body.
    public var headerSize: Int
    /// `ih_protect_tlv_size`: the protected TLV area's size including its info header, or 0.
    public var protectedTLVSize: Int
    /// `ih_img_size`: the size of the body.
    public var imageSize: Int
    /// `ih_flags`.
    public var flags: MCUbootImageFlags
    /// The image version.
    public var version: MCUbootImageVersion

    /// Parses and checks the header at the start of `bytes` (magic, header size; not the other sizes).
    init(parsing bytes: [UInt8]) throws(MCUbootImageError) {
        guard bytes.count >= Self.size else { throw .tooShortForHeader(fileSize: bytes.count) }
        let magic = bytes.imageUInt32(at: 0)
        guard magic != Self.legacyMagic else { throw .legacyMagic }
        guard magic == Self.magic else { throw .badMagic(found: magic) }
        loadAddress = bytes.imageUInt32(at: 4)
        headerSize = Int(bytes.imageUInt16(at: 8))
        protectedTLVSize = Int(bytes.imageUInt16(at: 10))
        imageSize = Int(bytes.imageUInt32(at: 12))
        flags = MCUbootImageFlags(rawValue: bytes.imageUInt32(at: 16))
        version = MCUbootImageVersion(
            major: bytes[20], minor: bytes[21], revision: bytes.imageUInt16(at: 22),
            build: bytes.imageUInt32(at: 24))
        guard headerSize >= Self.size else { throw .headerSizeTooSmall(headerSize) }
    }
}
