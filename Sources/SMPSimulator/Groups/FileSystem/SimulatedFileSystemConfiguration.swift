import SMP

/// How a virtual device's file system group (8) is built: its mount points, capacity, preloaded
/// files and the limits of Zephyr's fs_mgmt.
public struct SimulatedFileSystemConfiguration: Sendable, Hashable {
    /// Mount points (`/lfs1`); a path outside them answers `MOUNT_POINT_NOT_FOUND` on upload.
    public var mountPoints: [String]
    /// Mount points mounted read-only: uploads answer `READ_ONLY_FILESYSTEM`.
    public var readOnlyMountPoints: Set<String>
    /// Bytes all files together may hold; a write past it answers `FILE_WRITE_FAILED`.
    public var capacity: Int
    /// Files present at start, by absolute path (their directories are created).
    public var files: [String: [UInt8]]
    /// Directories present at start (besides those of the files).
    public var directories: [String]
    /// `MCUMGR_GRP_FS_DL_CHUNK_SIZE`; nil derives it from the device's buffer size.
    public var downloadChunkSize: Int?
    /// The hash and checksum types, the default first (`crc32`, `sha256`).
    public var hashTypes: [String]
    /// `MCUMGR_GRP_FS_PATH_LEN`: the longest accepted path.
    public var maximumPathLength: Int
    /// `MCUMGR_GRP_FS_FILE_AUTOMATIC_IDLE_CLOSE_TIME`: an open upload or download is closed after
    /// this long without requests; nil keeps it open.
    public var idleCloseTime: Duration?
    /// Whether the device has close (command 4, Zephyr ≥ 3.3); false answers rc 8.
    public var closeSupported: Bool
    /// A failing flash, for tests of verification: the first this many uploaded chunks are
    /// stored with their first byte's lowest bit flipped, and acknowledged as if stored right.
    public var corruptedChunks: Int = 0

    /// Creates a configuration: by default one LittleFS mount at `/lfs1` of 1 MiB.
    public init(
        mountPoints: [String] = ["/lfs1"], readOnlyMountPoints: Set<String> = [], capacity: Int = 1 << 20,
        files: [String: [UInt8]] = [:], directories: [String] = [], downloadChunkSize: Int? = nil,
        hashTypes: [String] = ["crc32", "sha256"], maximumPathLength: Int = 64, idleCloseTime: Duration? = .seconds(4),
        closeSupported: Bool = true
    ) {
        self.mountPoints = mountPoints
        self.readOnlyMountPoints = readOnlyMountPoints
        self.capacity = capacity
        self.files = files
        self.directories = directories
        self.downloadChunkSize = downloadChunkSize
        self.hashTypes = hashTypes
        self.maximumPathLength = maximumPathLength
        self.idleCloseTime = idleCloseTime
        self.closeSupported = closeSupported
    }

    /// The download chunk size for a device with `bufferSize`-byte buffers: the buffer less the
    /// SMP header and the largest response envelope (`off`, `len`, `data`'s head, legacy `rc`).
    public func chunkSize(bufferSize: Int) -> Int {
        downloadChunkSize ?? max(1, bufferSize - SMPHeader.size - Self.responseEnvelope)
    }

    /// The CBOR bytes of a download response besides the data: map head and break, `off` and
    /// `len` with 64-bit values, `data`'s key and a 5-byte head, `rc: 0`.
    static let responseEnvelope = 2 + (4 + 9) * 2 + (5 + 5) + 4
}
