import SMP

extension FileSystemGroup {
    /// The file an upload writes, or Zephyr's answer to opening `name` for writing: `/` is an
    /// invalid name; no mount point, or a missing directory, is `MOUNT_POINT_NOT_FOUND` (fs_mgmt
    /// maps every ENOENT of the open to it); a read-only mount is `READ_ONLY_FILESYSTEM`; a
    /// directory, a trailing `/` or a file used as a directory is `UNKNOWN` (EISDIR, ENOTDIR).
    func uploadPath(_ name: String) throws(SimulatedError) -> String {
        if name == "/" { throw .groupError(FileSystemGroupError.fileInvalidName) }
        let lookup = fileSystem.lookup(name)
        if lookup == .noMount { throw .groupError(FileSystemGroupError.mountPointNotFound) }
        if let mount = fileSystem.mountPoint(of: name + "/"), fileSystem.readOnly.contains(mount) {
            throw .groupError(FileSystemGroupError.readOnlyFilesystem)
        }
        switch lookup {
        case .file(let path) where !name.hasSuffix("/"):
            return path
        case .missing(let path, true) where !name.hasSuffix("/"):
            return path
        case .missing(_, false):
            throw .groupError(FileSystemGroupError.mountPointNotFound)
        default:
            throw .groupError(FileSystemGroupError.unknown)
        }
    }

    /// The contents of an existing file (as ``visibleContent(_:)`` shows it), or Zephyr's answer to `fs_stat` of `name`:
    /// `FILE_IS_DIRECTORY` for a directory (`/` and the mount points too), `FILE_NOT_FOUND` for
    /// nothing there (no mount point either), `UNKNOWN` for a file used as a directory.
    func existingFile(_ name: String) throws(SimulatedError) -> [UInt8] {
        switch fileSystem.lookup(name) {
        case .file(let path): return visibleContent(path) ?? []
        case .directory: throw .groupError(FileSystemGroupError.fileIsDirectory)
        case .missing, .noMount: throw .groupError(FileSystemGroupError.fileNotFound)
        case .notADirectory: throw .groupError(FileSystemGroupError.unknown)
        }
    }
}
