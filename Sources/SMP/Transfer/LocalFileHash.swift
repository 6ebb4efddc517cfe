import Crypto

/// The file system group's hash types computed over local bytes, read piece by piece from an
/// ``UploadSource``, to compare with a device's ``FileHash`` answer.
public enum LocalFileHash {
    /// The types this side can compute, in order of preference for a comparison.
    public static let types = ["sha256", "crc32"]

    /// The `type` hash of `length` bytes from `offset` of `source` (crc32 as 4 big-endian bytes);
    /// nil for a type this side cannot compute.
    public static func hash(_ source: some UploadSource, type: String, offset: UInt64 = 0, length: UInt64? = nil) throws -> [UInt8]? {
        let start = Int(clamping: min(offset, UInt64(source.count)))
        let end = Int(clamping: min(UInt64(source.count), length.map { offset + $0 } ?? UInt64(source.count)))
        let pieceSize = 64 * 1024
        switch type {
        case "sha256":
            var hasher = SHA256()
            try forEachPiece(source, start, end, pieceSize) { hasher.update(data: $0) }
            return Array(hasher.finalize())
        case "crc32":
            var crc = CRC32()
            try forEachPiece(source, start, end, pieceSize) { crc.update($0) }
            return (0..<4).reversed().map { UInt8(truncatingIfNeeded: crc.value >> (8 * $0)) }
        default:
            return nil
        }
    }

    private static func forEachPiece(
        _ source: some UploadSource, _ start: Int, _ end: Int, _ size: Int, _ body: ([UInt8]) -> Void
    ) throws {
        var offset = start
        while offset < end {
            let length = min(size, end - offset)
            body(try source.read(offset: offset, length: length))
            offset += length
        }
    }
}
