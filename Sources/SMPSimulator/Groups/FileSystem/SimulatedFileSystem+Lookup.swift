extension SimulatedFileSystem {
    /// What a path names, as Zephyr's VFS and LittleFS see it: `/` is a directory (it lists the
    /// mount points), a path must start with a mount point exactly (`//lfs1/x` does not), and
    /// after it repeated slashes count as one (`/lfs1//x` is `/lfs1/x`).
    enum Lookup: Equatable {
        /// A file; `path` is its normalised path (the key in ``SimulatedFileSystem/files``).
        case file(path: String)
        case directory
        /// Nothing there; `parentExists` tells whether its directory exists (so it can be created).
        case missing(path: String, parentExists: Bool)
        /// A component before the last is a file, or a file is named with a trailing `/` (ENOTDIR).
        case notADirectory
        /// The path does not start with a mount point.
        case noMount
    }

    /// Looks `name` up.
    func lookup(_ name: String) -> Lookup {
        if name == "/" { return .directory }
        guard let mount = mountPoints.first(where: { name == $0 || name.hasPrefix($0 + "/") }) else { return .noMount }
        let components = name.dropFirst(mount.count).split(separator: "/")
        var current = mount
        for (index, component) in components.enumerated() {
            current += "/" + component
            let isLast = index == components.count - 1
            if files[current] != nil { return isLast && !name.hasSuffix("/") ? .file(path: current) : .notADirectory }
            guard directories.contains(current) else { return .missing(path: current, parentExists: isLast) }
        }
        return .directory
    }
}
