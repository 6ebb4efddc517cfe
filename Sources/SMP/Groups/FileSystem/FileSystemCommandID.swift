/// The file system group's (8) command IDs (docs/protocol/file-system.md §9).
public enum FileSystemCommandID {
    /// Download (read) or upload (write) a file chunk.
    public static let file: UInt8 = 0
    /// File status: the file's size.
    public static let status: UInt8 = 1
    /// A hash or checksum of the file or of a range of it.
    public static let hash: UInt8 = 2
    /// The hash and checksum types the device supports.
    public static let supportedHashes: UInt8 = 3
    /// Close the file the device holds open for an upload or download.
    public static let close: UInt8 = 4
}
