/// Why an upload failed, besides the client's own errors (``SMPError``).
public enum ChunkedUploadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The device reported `match: false` on the last chunk.
    case hashMismatch
    /// Messages of `maximumMessageSize` bytes leave no room for `needed` data bytes.
    case messageTooSmall(maximumMessageSize: Int, needed: Int)
    /// The file is shorter than the first chunk must be.
    case fileTooShort(length: Int, minimum: Int)
    /// The device expects an offset past the end of the file.
    case offsetBeyondEnd(offset: UInt64, total: UInt64)
    /// The device keeps asking for `offset` (or keeps losing its upload state) without progress.
    case noProgress(offset: UInt64)

    public var description: String {
        switch self {
        case .hashMismatch:
            return "the device's hash of the upload does not match the file"
        case .messageTooSmall(let size, let needed):
            return "the device accepts messages of \(size) bytes, too small for a chunk of \(needed) data bytes"
        case .fileTooShort(let length, let minimum):
            return "the file has \(length) bytes; an upload needs at least \(minimum)"
        case .offsetBeyondEnd(let offset, let total):
            return "the device expects offset \(offset), past the end of the \(total)-byte file"
        case .noProgress(let offset):
            return "the upload makes no progress: the device keeps asking for offset \(offset)"
        }
    }
}
