#if canImport(Glibc)
import Glibc
#endif
import SMPSerialDiscovery

/// Serial devices that discovery does not list, found by a `path` pattern on the file system:
/// pseudo-terminals and the links to them (`smpctl simulate --serial-link`, socat, QEMU).
enum SerialPathGlob {
    /// `ports` plus a port for each character device whose path matches the filter's absolute
    /// `path` pattern (links followed) and that is not among them already.
    static func adding(to ports: [SerialPortInfo], for selector: SerialPortSelector) -> [SerialPortInfo] {
        guard case .matching(let filter) = selector, let pattern = filter.pathPattern, pattern.hasPrefix("/") else { return ports }
        let known = Set(ports.flatMap { [$0.path] + $0.links })
        return ports + devices(matching: pattern).filter { !known.contains($0) }.map { SerialPortInfo(path: $0) }.filter(filter.matches)
    }

    /// The character devices (after links) whose paths match `pattern`, sorted.
    private static func devices(matching pattern: String) -> [String] {
        var found = glob_t()
        defer { globfree(&found) }
        guard glob(pattern, 0, nil, &found) == 0 else { return [] }
        let paths = (0..<Int(found.gl_pathc)).compactMap { found.gl_pathv[$0].map { String(cString: $0) } }
        return paths.filter { path in
            var info = stat()
            return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR
        }.sorted()
    }
}
