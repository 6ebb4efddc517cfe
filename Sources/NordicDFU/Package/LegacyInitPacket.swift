/// A legacy DFU extended init packet (nRF5 SDK 7–11, DFU versions 0.5–0.8; the `.dat` of a
/// package with `dfu_version`), all little-endian:
///
///     device_type u16, device_rev u16, app_version u32, sd_count u16, sd_req[sd_count] u16,
///     then one of:
///       crc16 u16                                           (0.5)
///       ext_id u32 = 0, crc16 u16                           (0.6)
///       ext_id u32 = 1, length u32, sha256[32]              (0.7)
///       ext_id u32 = 2, length u32, sha256[32], ecds[64]    (0.8)
///
/// The CRC is CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF) of the image; the
/// SHA-256 digest is stored in the usual byte order (adafruit-nrfutil `init_packet.py`,
/// `package.py`). The variant is told by the bytes left after the SoftDevice list.
public struct LegacyInitPacket: Sendable, Equatable {
    /// How the packet identifies the image.
    public enum Integrity: Sendable, Equatable {
        /// The image's CRC-16 (DFU 0.5, or 0.6 with extended packet ID 0).
        case crc16(UInt16)
        /// The image's length and SHA-256 digest (0.7), with a 64-byte ECDSA signature of the
        /// packet (0.8).
        case sha256(length: UInt32, digest: [UInt8], signature: [UInt8]?)
    }

    /// The whole packet, as sent to the bootloader.
    public var bytes: [UInt8]
    /// `device_type` (0xFFFF: any).
    public var deviceType: UInt16
    /// `device_rev` (0xFFFF: any).
    public var deviceRevision: UInt16
    /// `app_version` (0xFFFFFFFF: any).
    public var applicationVersion: UInt32
    /// The SoftDevice firmware IDs of which one must be installed (0xFFFE: any).
    public var softDeviceRequirements: [UInt16]
    /// The extended packet ID (DFU 0.6+), nil for a 0.5 packet.
    public var extendedPacketID: UInt32?
    /// The image's CRC or hash.
    public var integrity: Integrity

    /// Decodes `bytes`.
    public init(bytes: [UInt8]) throws(InitPacketError) {
        guard bytes.count <= SecureInitPacket.maximumSize else {
            throw .tooLarge(size: bytes.count, limit: SecureInitPacket.maximumSize)
        }
        var reader = LittleEndianReader(bytes: bytes)
        self.bytes = bytes
        deviceType = UInt16(try reader.read(2))
        deviceRevision = UInt16(try reader.read(2))
        applicationVersion = UInt32(try reader.read(4))
        let count = Int(try reader.read(2))
        guard count * 2 <= reader.remaining else {
            throw .malformedLegacyPacket(offset: 8, problem: "\(count) SoftDevice IDs need \(count * 2) bytes, \(reader.remaining) are left")
        }
        var requirements: [UInt16] = []
        for _ in 0..<count { requirements.append(UInt16(try reader.read(2))) }
        softDeviceRequirements = requirements
        if reader.remaining == 2 {
            extendedPacketID = nil
            integrity = .crc16(UInt16(try reader.read(2)))
            return
        }
        let idOffset = reader.position
        let id = UInt32(try reader.read(4))
        extendedPacketID = id
        let expected: Int
        switch id {
        case 0: expected = 2
        case 1: expected = 36
        case 2: expected = 100
        default:
            throw .malformedLegacyPacket(offset: idOffset, problem: "unknown extended packet ID \(id) (known: 0 CRC-16, 1 SHA-256, 2 signed)")
        }
        guard reader.remaining == expected else {
            throw .malformedLegacyPacket(
                offset: idOffset + 4, problem: "extended packet ID \(id) needs \(expected) more bytes, \(reader.remaining) are left")
        }
        if id == 0 {
            integrity = .crc16(UInt16(try reader.read(2)))
        } else {
            let length = UInt32(try reader.read(4))
            let digest = try reader.bytes(32)
            integrity = .sha256(length: length, digest: digest, signature: id == 2 ? try reader.bytes(64) : nil)
        }
    }
}

/// Reads little-endian integers and byte runs, each checked against the bytes left.
private struct LittleEndianReader {
    let bytes: [UInt8]
    private(set) var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - position }

    /// A `count`-byte little-endian unsigned integer (`count` ≤ 8).
    mutating func read(_ count: Int) throws(InitPacketError) -> UInt64 {
        try bytes(count).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The next `count` bytes.
    mutating func bytes(_ count: Int) throws(InitPacketError) -> [UInt8] {
        guard remaining >= count else { throw .truncated(offset: position, needed: count, available: remaining) }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }
}
