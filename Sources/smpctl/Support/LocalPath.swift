#if canImport(Glibc)
import Glibc
#endif

/// Questions about local paths that the many-device outputs ask before anything is sent
/// (``FleetReportFiles``, `fs get` with `{name}`).
enum LocalPath {
    /// Whether `path` is a folder (after links).
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The folder that holds `path` (`.` for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// The absolute path with links resolved (`realpath(3)`); nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// One spelling per file, for telling whether two paths name one file: the resolved path,
    /// or for a file not yet there, its resolved folder and its name.
    static func canonical(_ path: String) -> String {
        if let resolved = resolved(path) { return resolved }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return (resolved(folder(of: path)) ?? folder(of: path)) + "/" + name
    }
}
