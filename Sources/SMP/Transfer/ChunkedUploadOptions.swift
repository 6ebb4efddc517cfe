/// How a ``ChunkedUploader`` paces and sizes its chunks.
public struct ChunkedUploadOptions: Sendable, Hashable {
    /// Chunks in flight after the first one; nil uses the device's ``MCUmgrParameters/window``
    /// (`buf_count − 1`, at least 1).
    public var window: Int?
    /// Every chunk but the last ends on a multiple of this many bytes (1: anywhere). MCUboot and
    /// Mynewt store chunks in flash-write units, so an aligned chunk is never partly re-sent. The
    /// upload also learns the unit from the device's partial acknowledgements and then aligns on
    /// both.
    public var alignment: Int
    /// Start afresh even when the device holds an interrupted upload of the same file: a first
    /// chunk without `sha` clears the device's upload state before the real first chunk.
    public var restart: Bool
    /// The timeout of a first chunk (nil: the target's own, for an image 30 s, since the device
    /// may erase the slot before it answers).
    public var firstChunkTimeout: Duration?

    /// Creates options.
    public init(window: Int? = nil, alignment: Int = 1, restart: Bool = false, firstChunkTimeout: Duration? = nil) {
        self.window = window
        self.alignment = alignment
        self.restart = restart
        self.firstChunkTimeout = firstChunkTimeout
    }
}
