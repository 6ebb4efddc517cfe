import SMP

/// What the simulator reads from an MCUboot image (docs/protocol/image-format.md §16): the 32-byte header and the SHA-256 TLV.
public struct SimulatedImageHeader: Sendable, Hashable {
    /// `IMAGE_MAGIC`.
    public static let magic: UInt32 = 0x96f3_b83d
    /// `IMAGE_F_NON_BOOTABLE`.
    static let nonBootableFlag: UInt32 = 0x10
    /// `IMAGE_F_ROM_FIXED`: the image is linked for the flash address in ``loadAddress``
    /// (direct-XIP slot binding).
    public static let romFixedFlag: UInt32 = 0x100

    /// `ih_load_addr`: with ``romFixedFlag``, the flash address of the slot the image is built for.
    public var loadAddress: UInt32
    /// Header flags.
    public var flags: UInt32
    /// Version: major, minor, revision, build.
    public var version: (major: UInt8, minor: UInt8, revision: UInt16, build: UInt32)
    /// The SHA-256 TLV value; nil when the image has none.
    public var hash: [UInt8]?

    /// The version as devices print it: `major.minor.revision`, `.build` only when not 0.
    public var versionString: String {
        let base = "\(version.major).\(version.minor).\(version.revision)"
        return version.build == 0 ? base : base + ".\(version.build)"
    }

    /// Whether the image may boot.
    public var bootable: Bool { flags & Self.nonBootableFlag == 0 }

    /// Whether the image is linked for a fixed flash address (``loadAddress``).
    public var romFixed: Bool { flags & Self.romFixedFlag != 0 }

    /// The version as one comparable number (major, minor, revision; build ignored as Zephyr does by default).
    var comparableVersion: UInt64 {
        UInt64(version.major) << 32 | UInt64(version.minor) << 16 | UInt64(version.revision)
    }

    /// Whether `bytes` start with the image magic.
    static func hasMagic(_ bytes: [UInt8]) -> Bool { bytes.count >= 4 && bytes.littleEndian(at: 0, 4) == UInt64(magic) }

    /// Parses the header of an image (nil without a valid magic and 32-byte header); the hash
    /// is read from the unprotected TLV area when the whole image is present.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 32, Self.hasMagic(bytes) else { return nil }
        loadAddress = UInt32(bytes.littleEndian(at: 4, 4))
        flags = UInt32(bytes.littleEndian(at: 16, 4))
        version = (bytes[20], bytes[21], UInt16(bytes.littleEndian(at: 22, 2)), UInt32(bytes.littleEndian(at: 24, 4)))
        let headerSize = Int(bytes.littleEndian(at: 8, 2))
        let protectedSize = Int(bytes.littleEndian(at: 10, 2))
        let imageSize = Int(bytes.littleEndian(at: 12, 4))
        hash = Self.sha256TLV(bytes, at: headerSize + imageSize + protectedSize)
    }

    /// Whether `bytes` are an image whose SHA-256 TLV is the hash of its header, body and
    /// protected TLVs (what MCUboot checks before it boots an image).
    static func hashMatchesContent(_ bytes: [UInt8]) -> Bool {
        guard let header = SimulatedImageHeader(bytes), let hash = header.hash else { return false }
        let hashed = Int(bytes.littleEndian(at: 8, 2)) + Int(bytes.littleEndian(at: 12, 4)) + Int(bytes.littleEndian(at: 10, 2))
        return hashed <= bytes.count && SHA256Hash.digest(Array(bytes[..<hashed])) == hash
    }

    /// Walks the unprotected TLV area (magic 0x6907) for TLV 0x10 of 32 bytes.
    private static func sha256TLV(_ bytes: [UInt8], at start: Int) -> [UInt8]? {
        guard start + 4 <= bytes.count, bytes.littleEndian(at: start, 2) == 0x6907 else { return nil }
        let end = min(bytes.count, start + Int(bytes.littleEndian(at: start + 2, 2)))
        var position = start + 4
        while position + 4 <= end {
            let type = bytes.littleEndian(at: position, 2)
            let length = Int(bytes.littleEndian(at: position + 2, 2))
            position += 4
            if type == 0x10 && length == 32 && position + length <= end { return Array(bytes[position..<position + length]) }
            position += length
        }
        return nil
    }

    /// Builds a minimal image file: header (32 bytes), `body`, and an unprotected TLV area
    /// holding `hash` as the SHA-256 TLV (the simulator does not check it against the body).
    /// A direct-XIP image for a fixed slot has `flags` ``romFixedFlag`` and that slot's
    /// `loadAddress`.
    public static func imageFile(
        version: (major: UInt8, minor: UInt8, revision: UInt16, build: UInt32), body: [UInt8], hash: [UInt8], flags: UInt32 = 0,
        loadAddress: UInt32 = 0
    ) -> [UInt8] {
        var file: [UInt8] = []
        file.appendLittleEndian(UInt64(magic), 4)
        file.appendLittleEndian(UInt64(loadAddress), 4)
        file.appendLittleEndian(32, 2)
        file.appendLittleEndian(0, 2)
        file.appendLittleEndian(UInt64(body.count), 4)
        file.appendLittleEndian(UInt64(flags), 4)
        file += [version.major, version.minor]
        file.appendLittleEndian(UInt64(version.revision), 2)
        file.appendLittleEndian(UInt64(version.build), 4)
        file.appendLittleEndian(0, 4)
        file += body
        file.appendLittleEndian(0x6907, 2)
        file.appendLittleEndian(UInt64(4 + 4 + hash.count), 2)
        file.appendLittleEndian(0x10, 2)
        file.appendLittleEndian(UInt64(hash.count), 2)
        return file + hash
    }

    /// Builds a sound image file, as imgtool would without a signature: header, `body`, and the
    /// SHA-256 TLV holding the hash of header and body (what MCUboot and `smpctl image upload` check).
    public static func soundImageFile(
        version: (major: UInt8, minor: UInt8, revision: UInt16, build: UInt32), body: [UInt8], flags: UInt32 = 0, loadAddress: UInt32 = 0
    ) -> [UInt8] {
        let unhashed = imageFile(version: version, body: body, hash: [], flags: flags, loadAddress: loadAddress)
        let digest = SHA256Hash.digest(Array(unhashed.prefix(32 + body.count)))
        return imageFile(version: version, body: body, hash: digest, flags: flags, loadAddress: loadAddress)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.loadAddress == rhs.loadAddress && lhs.flags == rhs.flags && lhs.hash == rhs.hash && lhs.versionString == rhs.versionString
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(loadAddress)
        hasher.combine(flags)
        hasher.combine(hash)
        hasher.combine(versionString)
    }
}

extension [UInt8] {
    /// A little-endian unsigned integer of `width` bytes at `offset` (the caller checks bounds).
    fileprivate func littleEndian(at offset: Int, _ width: Int) -> UInt64 {
        (0..<width).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64(self[offset + $1]) }
    }

    fileprivate mutating func appendLittleEndian(_ value: UInt64, _ width: Int) {
        for index in 0..<width { append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }
}
