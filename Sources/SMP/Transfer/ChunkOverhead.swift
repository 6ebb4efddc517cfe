import CBOR

/// The size of a chunk request besides its data bytes: the 8-byte SMP header and every CBOR byte
/// of the payload but the data itself. Shared by the chunk commands of every upload target.
enum ChunkOverhead {
    /// The overhead of a payload that is `emptyPayload` (the chunk's fields with empty `data`)
    /// once its data holds `dataLength` bytes: the byte string's head grows with its length.
    static func bytes(emptyPayload: CBORMap, dataLength: Int) -> Int {
        SMPHeader.size + CBOR.map(emptyPayload).encoded().count - 1 + headSize(UInt64(max(0, dataLength)))
    }

    /// The size of a CBOR head carrying `argument`.
    static func headSize(_ argument: UInt64) -> Int {
        switch argument {
        case 0..<24: return 1
        case 24...0xFF: return 2
        case 0x100...0xFFFF: return 3
        case 0x1_0000...0xFFFF_FFFF: return 5
        default: return 9
        }
    }
}
