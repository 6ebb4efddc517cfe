/// An upload in progress (Zephyr keeps one, globally).
struct SimulatedUpload: Sendable, Hashable {
    /// The target image.
    var image: Int
    /// The physical slot receiving the data (the image's inactive slot).
    var slot: Int
    /// The total length announced by the first chunk.
    var length: Int
    /// The `sha` of the first chunk, if any.
    var sha: [UInt8]?
    /// Bytes written so far: the next expected offset.
    var offset: Int
}
