import SMP

/// Why bytes are not a usable MCUboot image; every case names the byte offset involved.
public enum MCUbootImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer than 32 bytes: not even a header.
    case tooShortForHeader(fileSize: Int)
    /// The legacy v1 magic `0x96f3b83c` (offset 0), which is not supported.
    case legacyMagic
    /// Offset 0 holds neither magic (`0xffffffff` means erased flash).
    case badMagic(found: UInt32)
    /// `ih_hdr_size` (offset 8) is smaller than the 32-byte header.
    case headerSizeTooSmall(Int)
    /// Header plus body (`ih_hdr_size + ih_img_size`) run past the end of the file.
    case bodyBeyondFile(bodyEnd: Int, fileSize: Int)
    /// The file ends before the 4-byte info header of a TLV area at `offset`.
    case truncatedTLVAreaHeader(area: MCUbootTLVArea.Kind, offset: Int, fileSize: Int)
    /// The TLV area at `offset` does not start with its magic.
    case badTLVAreaMagic(area: MCUbootTLVArea.Kind, offset: Int, found: UInt16)
    /// `it_tlv_tot` of the area at `offset` is smaller than its own 4-byte header.
    case tlvAreaTooSmall(area: MCUbootTLVArea.Kind, offset: Int, totalSize: Int)
    /// The TLV area at `offset` runs past the end of the file.
    case tlvAreaBeyondFile(area: MCUbootTLVArea.Kind, offset: Int, totalSize: Int, fileSize: Int)
    /// The protected area's `it_tlv_tot` differs from `ih_protect_tlv_size`.
    case protectedSizeMismatch(offset: Int, headerSize: Int, areaSize: Int)
    /// The TLV at `offset` (its header, or its value of `length` bytes) runs past the end of its area.
    case tlvPastAreaEnd(area: MCUbootTLVArea.Kind, offset: Int, length: Int?, areaEnd: Int)
    /// A hash TLV whose length does not fit its algorithm.
    case badHashLength(type: MCUbootTLVType, offset: Int, length: Int)
    /// More than one TLV of a hash type (img_mgmt rejects such images).
    case duplicateHashTLV(type: MCUbootTLVType, offset: Int)
    /// The hash recomputed over header, body and protected TLVs differs from the hash TLV at `offset`.
    case hashMismatch(type: MCUbootTLVType, offset: Int, expected: [UInt8], computed: [UInt8])
    /// The file could not be read at `offset` (an I/O error, or it shrank while it was read).
    case unreadable(offset: Int, reason: String)
    /// A RAM-load image whose reset handler (its vector at ``MCUbootImage/LoadAddressMismatch/resetVectorOffset``)
    /// lies outside the RAM its header loads it into.
    case loadAddressMismatch(MCUbootImage.LoadAddressMismatch)

    /// The byte offset the error is about.
    public var offset: Int {
        switch self {
        case .tooShortForHeader(let size): return size
        case .legacyMagic, .badMagic: return 0
        case .headerSizeTooSmall: return 8
        case .bodyBeyondFile(_, let size): return size
        case .truncatedTLVAreaHeader(_, let offset, _), .badTLVAreaMagic(_, let offset, _),
            .tlvAreaTooSmall(_, let offset, _), .tlvAreaBeyondFile(_, let offset, _, _),
            .protectedSizeMismatch(let offset, _, _), .tlvPastAreaEnd(_, let offset, _, _),
            .badHashLength(_, let offset, _), .duplicateHashTLV(_, let offset), .hashMismatch(_, let offset, _, _),
            .unreadable(let offset, _):
            return offset
        case .loadAddressMismatch(let mismatch): return mismatch.resetVectorOffset
        }
    }

    public var description: String {
        switch self {
        case .tooShortForHeader(let size):
            return "not an MCUboot image: \(size) bytes is too short for the 32-byte image header"
        case .legacyMagic:
            return "unsupported legacy MCUboot v1 image: magic \(MCUbootHex.literal(MCUbootImageHeader.legacyMagic)) at offset 0"
        case .badMagic(let found):
            let erased = found == 0xffff_ffff ? " (erased flash)" : ""
            return "not an MCUboot image: magic \(MCUbootHex.literal(found, width: 8))\(erased) at offset 0, expected \(MCUbootHex.literal(MCUbootImageHeader.magic))"
        case .headerSizeTooSmall(let size):
            return "corrupt image header: header size \(MCUbootHex.literal(size)) at offset 8 is smaller than 32 bytes"
        case .bodyBeyondFile(let end, let size):
            return "truncated image: header and body end at offset \(MCUbootHex.literal(end)) but the file has only \(size) bytes"
        case .truncatedTLVAreaHeader(let area, let offset, let size):
            return "truncated image: the \(area.rawValue) TLV area at offset \(MCUbootHex.literal(offset)) needs 4 bytes but the file has only \(size) bytes"
        case .badTLVAreaMagic(let area, let offset, let found):
            return "corrupt image: \(area.rawValue) TLV area magic \(MCUbootHex.literal(found, width: 4)) at offset \(MCUbootHex.literal(offset)), expected \(MCUbootHex.literal(area.magic, width: 4))"
        case .tlvAreaTooSmall(let area, let offset, let total):
            return "corrupt image: \(area.rawValue) TLV area at offset \(MCUbootHex.literal(offset)) claims \(total) bytes, fewer than its 4-byte header"
        case .tlvAreaBeyondFile(let area, let offset, let total, let size):
            return "truncated image: the \(area.rawValue) TLV area at offset \(MCUbootHex.literal(offset)) is \(total) bytes, past the end of the file (\(size) bytes)"
        case .protectedSizeMismatch(let offset, let header, let area):
            return "corrupt image: protected TLV area at offset \(MCUbootHex.literal(offset)) is \(area) bytes but the header says \(header)"
        case .tlvPastAreaEnd(let area, let offset, let length, let end):
            let what = length.map { "TLV at offset \(MCUbootHex.literal(offset)) with \($0) value bytes" } ?? "TLV header at offset \(MCUbootHex.literal(offset))"
            return "corrupt image: \(what) runs past the end of the \(area.rawValue) TLV area at offset \(MCUbootHex.literal(end))"
        case .badHashLength(let type, let offset, let length):
            return "corrupt image: \(type) TLV at offset \(MCUbootHex.literal(offset)) has \(length) bytes"
        case .duplicateHashTLV(let type, let offset):
            return "corrupt image: a second \(type) TLV at offset \(MCUbootHex.literal(offset))"
        case .hashMismatch(let type, let offset, let expected, let computed):
            return "image hash mismatch: the \(type) TLV at offset \(MCUbootHex.literal(offset)) holds \(Hex.string(expected)) "
                + "but header, body and protected TLVs hash to \(Hex.string(computed))"
        case .unreadable(let offset, let reason):
            return "cannot read the image at offset \(MCUbootHex.literal(offset)): \(reason)"
        case .loadAddressMismatch(let mismatch):
            return "RAM-load image signed for another address than its code is linked for: its header (offset 0x4) has MCUboot copy it to "
                + "\(MCUbootHex.literal(mismatch.loadAddress, width: 8))–\(MCUbootHex.literal(mismatch.loadEnd, width: 8)), but its reset handler "
                + "(the vector at offset \(MCUbootHex.literal(mismatch.resetVectorOffset))) is at \(MCUbootHex.literal(mismatch.resetHandler, width: 8)): "
                + "MCUboot would start code that is not there; sign it again with the load address the application is linked for (imgtool sign --load-addr)"
        }
    }
}
