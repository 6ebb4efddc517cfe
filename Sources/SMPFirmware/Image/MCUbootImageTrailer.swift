/// The MCUboot trailer at the end of a file built with `imgtool --pad` (`--confirm`, `--test`).
public struct MCUbootImageTrailer: Sendable, Hashable {
    /// `BOOT_MAX_ALIGN` the trailer was laid out for.
    public var maxAlign: Int
    /// The file offset of the 16-byte trailer magic.
    public var magicOffset: Int
    /// The image-OK byte: `0x01` confirmed, `0xff` unset.
    public var imageOK: UInt8

    /// Whether the image is marked confirmed (installed permanently without a state write).
    public var isConfirmed: Bool { imageOK == 0x01 }

    private static let standardMagic: [UInt8] = [
        0x77, 0xc2, 0x95, 0xf3, 0x60, 0xd2, 0xef, 0x7f, 0x35, 0x52, 0x50, 0x0f, 0x2c, 0xb6, 0x79, 0x80,
    ]
    private static let alignedMagicTail: [UInt8] = [
        0x2d, 0xe1, 0x5d, 0x29, 0x41, 0x0b, 0x8d, 0x77, 0x67, 0x9c, 0x11, 0x0f, 0x1f, 0x8a,
    ]

    /// Whether `bytes` end with a trailer magic (standard, or for a `BOOT_MAX_ALIGN` above 16).
    static func endsWithMagic(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 16 && (bytes.suffix(16).elementsEqual(standardMagic) || bytes.suffix(14).elementsEqual(alignedMagicTail))
    }

    /// The trailer at the end of the file, if the last 16 bytes after `imageEnd` are a trailer
    /// magic (only those bytes and the image-OK byte are read).
    init?(endOf file: ImageSourceReader, imageEnd: Int) throws(MCUbootImageError) {
        let magicOffset = file.size - 16
        guard magicOffset >= imageEnd else { return nil }
        let magic = try file.bytes(at: magicOffset, count: 16)
        let align: Int
        if magic == Self.standardMagic {
            align = 8
        } else if Array(magic[2...]) == Self.alignedMagicTail {
            align = Int(magic.imageUInt16(at: 0))
            guard align > 0 else { return nil }
        } else {
            return nil
        }
        let magicAligned = (16 + align - 1) / align * align
        let imageOKOffset = file.size - magicAligned - align
        guard imageOKOffset >= imageEnd else { return nil }
        self.init(maxAlign: align, magicOffset: magicOffset, imageOK: try file.bytes(at: imageOKOffset, count: 1)[0])
    }

    private init(maxAlign: Int, magicOffset: Int, imageOK: UInt8) {
        self.maxAlign = maxAlign
        self.magicOffset = magicOffset
        self.imageOK = imageOK
    }
}
