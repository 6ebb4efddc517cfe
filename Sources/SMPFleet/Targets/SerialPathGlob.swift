#if canImport(Glibc)
import Glibc
#endif
import SMPSerial
import SMPSerialDiscovery

/// Serial devices that discovery does not list, found on the file system by the path a selector
/// names: pseudo-terminals and the links to them (`smpctl simulate --serial-link`, socat, QEMU).
/// The pseudo-terminal multiplexer (`/dev/ptmx`, `/dev/pts/ptmx`) is never one.
public enum SerialPathGlob {
    /// `ports` plus the character device that `selector` names by an absolute path (`/dev/pts/3`),
    /// or each pseudo-terminal that an absolute `path` pattern matches (`path=/dev/pts/*`,
    /// `/tmp/ttySMP-*`), links followed, that is not among them already. A pattern adds only
    /// pseudo-terminals: `/dev/tty*` would otherwise add the controlling terminal and the consoles.
    public static func adding(to ports: [SerialPortInfo], for selector: SerialPortSelector) -> [SerialPortInfo] {
        switch selector {
        case .path(let path) where path.hasPrefix("/"):
            guard !ports.contains(where: selector.matches), isSerialDevice(path) else { return ports }
            return ports + [SerialPortInfo(path: path)]
        case .matching(let filter):
            guard let pattern = filter.pathPattern, pattern.hasPrefix("/") else { return ports }
            let known = Set(ports.flatMap { [$0.path] + $0.links })
            return ports + pseudoTerminals(matching: pattern).filter { !known.contains($0) }.map { SerialPortInfo(path: $0) }.filter(filter.matches)
        default:
            return ports
        }
    }

    /// The pseudo-terminals (after links) whose paths match `pattern`, sorted.
    private static func pseudoTerminals(matching pattern: String) -> [String] {
        var found = glob_t()
        defer { globfree(&found) }
        guard glob(pattern, 0, nil, &found) == 0 else { return [] }
        let paths = (0..<Int(found.gl_pathc)).compactMap { found.gl_pathv[$0].map { String(cString: $0) } }
        return paths.filter { isSerialDevice($0) && DeviceLinks.followingLinks($0).hasPrefix("/dev/pts/") }.sorted()
    }

    /// Whether `path` is a character device (after links) other than the pseudo-terminal multiplexer.
    private static func isSerialDevice(_ path: String) -> Bool {
        // Not realpath(3), which umockdev's preload breaks on emulated nodes (see DeviceLinks).
        DeviceLinks.characterDevice(path) != nil && !DeviceLinks.followingLinks(path).hasSuffix("/ptmx")
    }
}
