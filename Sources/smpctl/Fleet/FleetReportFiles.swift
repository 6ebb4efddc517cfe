#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// The `--report` files of a many-device run (docs/many-devices.md, "Reports"): every path is
/// checked before any device is touched, and each report is written atomically at the end, so
/// that a report never destroys a file the run needed and a half-written report never exists.
struct FleetReportFiles: Sendable {
    /// One checked destination.
    struct Destination: Sendable {
        /// The path as given.
        let path: String
        /// The file written: the path, or the file a link there points to.
        let target: String
    }

    /// The destinations, in the order given.
    let destinations: [Destination]

    /// Checks every `--report` path and refuses, naming the path and what to do:
    /// - a folder, a device or anything else that is not a regular file;
    /// - a link to nothing, a read-only file, a folder that does not exist or cannot be written;
    /// - a file that the command reads (`inputs`: firmware, targets file, config file, log file…),
    ///   compared by identity (device and inode), so another name or a hard link is caught too;
    /// - the same file given twice.
    ///
    /// - Parameter inputs: paths the command reads; those that do not exist are passed over.
    init(paths: [String], inputs: [String]) throws(CLIError) {
        let readIdentities = inputs.compactMap { path in Self.identity(of: path).map { (path, $0) } }
        var destinations: [Destination] = []
        var written: [(path: String, identity: FileIdentity)] = []
        for path in paths {
            let destination = try Self.check(path)
            if let identity = Self.identity(of: destination.target) {
                if let input = readIdentities.first(where: { $0.1 == identity }) {
                    throw Self.refusal(path, input.0 == path ? "is a file this command reads" : "is the same file as \(input.0), which this command reads",
                        hint: "give the report a file name of its own")
                }
                if let earlier = written.first(where: { $0.identity == identity }) {
                    throw Self.refusal(path, "is the same file as --report \(earlier.path)", hint: "give each report its own file")
                }
                written.append((path, identity))
            } else if let earlier = destinations.first(where: { LocalPath.canonical($0.target) == LocalPath.canonical(destination.target) }) {
                throw Self.refusal(path, "is the same file as --report \(earlier.path)", hint: "give each report its own file")
            }
            destinations.append(destination)
        }
        self.destinations = destinations
    }

    /// Writes `text(destination.path)` to every destination: into a new file beside it, synced,
    /// then renamed over the old one (which keeps its permissions).
    ///
    /// - Throws: ``CLIError`` (exit 74) naming the report and the system's reason.
    func write(_ text: (String) -> String) throws(CLIError) {
        for destination in destinations {
            try Self.replace(destination.target, with: text(destination.path), reportPath: destination.path)
        }
    }

    /// The paths named on a command line: every argument, and the part after `=` of `--name=value`,
    /// except the values of `--report` themselves. Those that are files are what a report must not
    /// replace.
    static func namedPaths(in arguments: [String]) -> [String] {
        var paths: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext {
                skipNext = false
                continue
            }
            if argument == "--report" {
                skipNext = true
                continue
            }
            if argument.hasPrefix("--report=") { continue }
            paths.append(argument)
            if argument.hasPrefix("-"), let equals = argument.firstIndex(of: "=") {
                paths.append(String(argument[argument.index(after: equals)...]))
            }
        }
        return paths
    }

    // MARK: Checks

    private struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64
    }

    private static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard !path.isEmpty, stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    private static func check(_ path: String) throws(CLIError) -> Destination {
        var link = stat()
        guard lstat(path, &link) == 0 else {
            guard errno == ENOENT || errno == ENOTDIR else { throw refusal(path, "cannot be examined: \(String(cString: strerror(errno)))") }
            try checkFolder(of: path, reportPath: path)
            return Destination(path: path, target: path)
        }
        var target = path
        if link.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = LocalPath.resolved(path) else {
                throw refusal(path, "is a link to \(linkText(path) ?? "a file") that does not exist", hint: "remove the link, or give the file it should point to")
            }
            target = resolved
        }
        var info = stat()
        guard stat(target, &info) == 0 else { throw refusal(path, "cannot be examined: \(String(cString: strerror(errno)))") }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw refusal(path, "is a folder", hint: "give a file name, e.g. \(path.hasSuffix("/") ? path : path + "/")report.json")
        default: throw refusal(path, "is not a regular file (a device, a pipe or a socket)", hint: "give a regular file: a report is written whole, then renamed into place")
        }
        guard access(target, W_OK) == 0 else {
            throw refusal(path, "is read-only (\(String(cString: strerror(errno))))", hint: "make it writable, or give another file")
        }
        try checkFolder(of: target, reportPath: path)
        return Destination(path: path, target: target)
    }

    /// The folder must exist, be a folder, and take new files (the report is written beside its
    /// place, then renamed).
    private static func checkFolder(of path: String, reportPath: String) throws(CLIError) {
        let folder = LocalPath.folder(of: path)
        var info = stat()
        guard stat(folder, &info) == 0 else {
            throw refusal(reportPath, "cannot be written: the folder \(folder) \(errno == ENOENT ? "does not exist" : String(cString: strerror(errno)))",
                hint: "create the folder first, or give a file in a folder that exists")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw refusal(reportPath, "cannot be written: \(folder) is not a folder") }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw refusal(reportPath, "cannot be written: the folder \(folder) does not take new files (\(String(cString: strerror(errno))))",
                hint: "give a file in a folder you may write to")
        }
    }

    private static func linkText(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func refusal(_ path: String, _ problem: String, hint: String = "give another file") -> CLIError {
        CLIError(.usage, "--report \(path) \(problem)", hint: hint + "; nothing was sent to any device")
    }

    // MARK: Writing

    private static func replace(_ path: String, with text: String, reportPath: String) throws(CLIError) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array("\(LocalPath.folder(of: path))/.\(name).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        let failed = { (what: String) -> CLIError in
            CLIError(.outputError, "cannot write the report \(reportPath): \(what): \(String(cString: strerror(errno)))",
                hint: "the devices were served; the report is also on standard output with --json")
        }
        guard descriptor >= 0 else { throw failed("cannot create a file beside it") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var existing = stat()
        let mode = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o666 & ~currentUmask()
        var text = text
        let complete = text.withUTF8 { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard complete, fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else {
            let error = failed("writing failed")
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let error = failed("cannot put it in place")
            unlink(temporary)
            throw error
        }
    }

    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}
