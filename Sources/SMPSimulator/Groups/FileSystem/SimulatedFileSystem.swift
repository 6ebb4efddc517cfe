import SMP

/// The in-memory file system behind ``FileSystemGroup``: mount points, directories and files,
/// with a capacity shared by all files.
struct SimulatedFileSystem: Sendable, Hashable {
    /// What a path names.
    enum Node: Equatable {
        case file
        case directory
        case missing
    }

    let mountPoints: [String]
    let readOnly: Set<String>
    let capacity: Int
    private(set) var files: [String: [UInt8]]
    private var directories: Set<String>

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

    func node(_ path: String) -> Node {
        if files[path] != nil { return .file }
        return directories.contains(path) ? .directory : .missing
    }

    /// Whether the directory that would hold `path` exists.
    func parentExists(_ path: String) -> Bool {
        directories.contains(Self.parent(path))
    }

    /// Writes `data` at `offset` (at most the file's size), within the capacity.
    mutating func write(_ data: [UInt8], at offset: Int, to path: String) -> Bool {
        var file = files[path] ?? []
        let end = offset + data.count
        guard offset <= file.count, used - file.count + max(file.count, end) <= capacity else { return false }
        if end > file.count { file.append(contentsOf: repeatElement(0, count: end - file.count)) }
        file.replaceSubrange(offset..<end, with: data)
        files[path] = file
        return true
    }

    mutating func truncate(_ path: String) {
        files[path] = []
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
