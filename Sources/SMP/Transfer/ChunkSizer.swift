/// The length of each chunk: as many data bytes as fit in the largest message with the chunk's
/// exact overhead (the CBOR widths of the offset and of the data length vary); every chunk but the
/// last ends on a multiple of the alignment (when that leaves it any data), so that a chunk
/// starting at an unaligned offset (after a resume) brings the next one back into line.
struct ChunkSizer<Target: ChunkedUploadTarget>: Sendable {
    let target: Target
    let maximumMessageSize: Int
    /// Chunk ends fall on multiples of this (1: anywhere); the upload raises it when it learns the
    /// device's write unit.
    var alignment: Int
    let total: UInt64
    let sha: [UInt8]?

    /// The data length of the chunk at `offset`.
    func length(at offset: UInt64, isFirst: Bool) throws(ChunkedUploadError) -> Int {
        let overhead = { (length: Int) in
            target.overhead(offset: offset, dataLength: length, isFirst: isFirst, totalLength: total, sha: sha)
        }
        // The overhead grows with the data length; start from the bound for the largest length and grow.
        var length = maximumMessageSize - overhead(maximumMessageSize)
        while length + 1 + overhead(length + 1) <= maximumMessageSize { length += 1 }
        let remaining = total - min(total, offset)
        let needed = isFirst ? min(target.minimumFirstChunkLength, Int(clamping: remaining)) : 1
        guard length >= max(needed, 1) || remaining == 0 else {
            throw .messageTooSmall(maximumMessageSize: maximumMessageSize, needed: max(needed, 1))
        }
        if remaining <= UInt64(length) { return Int(remaining) }
        guard alignment > 1 else { return length }
        let step = UInt64(alignment)
        let alignedEnd = (offset + UInt64(length)) / step * step
        if alignedEnd > offset, alignedEnd - offset >= UInt64(needed) { length = Int(alignedEnd - offset) }
        return length
    }
}
