import Crypto
import SMP

/// An image file read by position: the few bytes each structure needs, and hashes computed
/// piece by piece, so that parsing costs the same for a small file and a 4 GiB one.
struct ImageSourceReader {
    /// The bytes hashed at a time.
    static let pieceSize = 64 * 1024

    private let source: any UploadSource

    init(_ source: some UploadSource) {
        self.source = source
    }

    /// The file's size.
    var size: Int { source.count }

    /// The `count` bytes at `offset` (the caller has checked that they lie within the file).
    func bytes(at offset: Int, count: Int) throws(MCUbootImageError) -> [UInt8] {
        guard count > 0 else { return [] }
        do {
            return try source.read(offset: offset, length: count)
        } catch {
            throw .unreadable(offset: offset, reason: "\(error)")
        }
    }

    /// The `algorithm` digest of the file's first `length` bytes.
    func digest(_ algorithm: MCUbootHashAlgorithm, length: Int) throws(MCUbootImageError) -> [UInt8] {
        switch algorithm {
        case .sha256:
            var hasher = SHA256()
            try forEachPiece(upTo: length) { hasher.update(data: $0) }
            return Array(hasher.finalize())
        case .sha384:
            var hasher = SHA384()
            try forEachPiece(upTo: length) { hasher.update(data: $0) }
            return Array(hasher.finalize())
        case .sha512:
            var hasher = SHA512()
            try forEachPiece(upTo: length) { hasher.update(data: $0) }
            return Array(hasher.finalize())
        }
    }

    private func forEachPiece(upTo length: Int, _ body: ([UInt8]) -> Void) throws(MCUbootImageError) {
        var offset = 0
        while offset < length {
            let count = min(Self.pieceSize, length - offset)
            body(try bytes(at: offset, count: count))
            offset += count
        }
    }
}
