import SMP

/// The in-memory file system behind ``FileSystemGroup``: mount points, directories and files,
/// with a capacity shared by all files.
struct SimulatedFileSystem: Sendable, Hashable {
    let mountPoints: [String]
    let readOnly: Set<String>
    let capacity: Int
    private(set) var files: [String: [UInt8]]
    private(set) var directories: Set<String>

    init(configuration: SimulatedFileSystemConfiguration) {
        mountPoints = configuration.mountPoints
        readOnly = configuration.readOnlyMountPoints
        capacity = configuration.capacity
        files = configuration.files
        directories = Set(configuration.mountPoints)
        for path in configuration.directories + configuration.files.keys.map(Self.parent) { addDirectories(path) }
    }

    /// Bytes all files hold.
    var used: Int { files.values.reduce(0) { $0 + $1.count } }

    /// The mount point `path` lies in.
    func mountPoint(of path: String) -> String? {
        mountPoints.first { path.hasPrefix($0 + "/") }
    }

    /// Writes `data` at `offset` (at most the file's size), within the capacity, of which `held`
    /// bytes are taken besides the files (an open file's committed old version, which LittleFS
    /// keeps until the new one is committed).
    mutating func write(_ data: [UInt8], at offset: Int, to path: String, held: Int = 0) -> Bool {
        let size = files[path]?.count ?? 0
        let end = offset + data.count
        guard offset <= size, used - size + max(size, end) + held <= capacity else { return false }
        // In place: the dictionary's array is not copied for every chunk.
        files[path, default: []].withGrowth(to: end) { $0.replaceSubrange(offset..<end, with: data) }
        return true
    }

    mutating func truncate(_ path: String) {
        files[path] = []
    }

    /// Puts back `contents` as the file at `path` (what the file system committed before a reset
    /// lost the writes of a file still open).
    mutating func restore(_ path: String, to contents: [UInt8]) {
        files[path] = contents
    }

    private mutating func addDirectories(_ path: String) {
        var current = path
        while current.count > 1, mountPoint(of: current + "/x") != nil || mountPoints.contains(current) {
            directories.insert(current)
            current = Self.parent(current)
        }
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}

extension Array where Element == UInt8 {
    /// Grows the array with zeros to at least `count` bytes, then changes it.
    fileprivate mutating func withGrowth(to count: Int, _ change: (inout [UInt8]) -> Void) {
        if count > self.count { append(contentsOf: repeatElement(0, count: count - self.count)) }
        change(&self)
    }
}
