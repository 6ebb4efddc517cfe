/// One TLV entry of an MCUboot image.
public struct MCUbootTLV: Sendable, Hashable {
    /// The entry's type.
    public var type: MCUbootTLVType
    /// The file offset of the entry's 4-byte type/length header.
    public var offset: Int
    /// The value bytes (`it_len` of them).
    public var value: [UInt8]

    /// An entry.
    public init(type: MCUbootTLVType, offset: Int, value: [UInt8]) {
        self.type = type
        self.offset = offset
        self.value = value
    }
}

/// One TLV area of an MCUboot image: its info header and entries.
public struct MCUbootTLVArea: Sendable, Hashable {
    /// Which of the two areas.
    public enum Kind: String, Sendable, Hashable {
        /// Magic `0x6908`: covered by the image hash and signature.
        case protected
        /// Magic `0x6907`: hashes, signatures, keys.
        case unprotected

        /// The info-header magic of this area.
        public var magic: UInt16 { self == .protected ? 0x6908 : 0x6907 }
    }

    /// Which area.
    public var kind: Kind
    /// The file offset of the area's info header.
    public var offset: Int
    /// `it_tlv_tot`: the area's size including its 4-byte info header.
    public var totalSize: Int
    /// The entries in file order.
    public var entries: [MCUbootTLV]

    /// Parses the area at `offset` of the file, strictly: the magic, the size and every entry must
    /// fit. Only the area is read (at most 64 KiB: `it_tlv_tot` is 16 bits).
    static func parse(_ kind: Kind, at offset: Int, in file: ImageSourceReader) throws(MCUbootImageError) -> MCUbootTLVArea {
        guard offset + 4 <= file.size else {
            throw .truncatedTLVAreaHeader(area: kind, offset: offset, fileSize: file.size)
        }
        let head = try file.bytes(at: offset, count: 4)
        let magic = head.imageUInt16(at: 0)
        guard magic == kind.magic else { throw .badTLVAreaMagic(area: kind, offset: offset, found: magic) }
        let total = Int(head.imageUInt16(at: 2))
        guard total >= 4 else { throw .tlvAreaTooSmall(area: kind, offset: offset, totalSize: total) }
        let end = offset + total
        guard end <= file.size else {
            throw .tlvAreaBeyondFile(area: kind, offset: offset, totalSize: total, fileSize: file.size)
        }
        // The area's bytes, indexed from `offset`.
        let area = try file.bytes(at: offset, count: total)
        var entries: [MCUbootTLV] = []
        var position = 4
        while position < total {
            guard position + 4 <= total else {
                throw .tlvPastAreaEnd(area: kind, offset: offset + position, length: nil, areaEnd: end)
            }
            let length = Int(area.imageUInt16(at: position + 2))
            guard position + 4 + length <= total else {
                throw .tlvPastAreaEnd(area: kind, offset: offset + position, length: length, areaEnd: end)
            }
            let type = MCUbootTLVType(rawValue: area.imageUInt16(at: position))
            entries.append(MCUbootTLV(type: type, offset: offset + position, value: Array(area[(position + 4)..<(position + 4 + length)])))
            position += 4 + length
        }
        return MCUbootTLVArea(kind: kind, offset: offset, totalSize: total, entries: entries)
    }
}
