/// Bounds on what opening a package may read into memory; exceeding one is an error, never a crash.
public struct PackageLimits: Sendable, Equatable {
    /// The largest package file read.
    public var maximumFileSize: Int
    /// The largest uncompressed size of one archive entry.
    public var maximumEntrySize: Int
    /// The largest uncompressed size of all archive entries read together.
    public var maximumTotalSize: Int
    /// The most entries an archive may have.
    public var maximumEntryCount: Int

    /// Creates limits; the defaults (``ImageFile/sizeLimit``, 1024 entries) fit any real NCS package.
    public init(
        maximumFileSize: Int = ImageFile.sizeLimit, maximumEntrySize: Int = ImageFile.sizeLimit, maximumTotalSize: Int = ImageFile.sizeLimit,
        maximumEntryCount: Int = 1024
    ) {
        self.maximumFileSize = maximumFileSize
        self.maximumEntrySize = maximumEntrySize
        self.maximumTotalSize = maximumTotalSize
        self.maximumEntryCount = maximumEntryCount
    }
}
