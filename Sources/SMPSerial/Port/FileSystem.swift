#if canImport(Glibc)
import Glibc
#endif

/// The few file-system look-ups the port needs, without Foundation.
package enum FileSystem {
    /// The names in a directory (without `.` and `..`), or empty when it cannot be read.
    package static func entries(of directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The working directory ("/" if it cannot be read).
    static var currentDirectory: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The target of a symbolic link, or nil when `path` is not one.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The path with its symbolic links followed, or nil when nothing exists there.
    /// (Not `realpath(3)`, which crashes under umockdev; see ``DeviceLinks/followingLinks(_:)``.)
    static func canonicalPath(_ path: String) -> String? {
        guard access(path, F_OK) == 0 else { return nil }
        return DeviceLinks.followingLinks(path)
    }

    /// The first line of a small text file (such as `/proc/PID/comm`), or nil.
    static func firstLine(of path: String) -> String? {
        text(of: path).map { String($0.prefix { $0 != "\n" }) }
    }

    /// A small text file (such as `/proc/PID/fdinfo/FD`), up to 4 KiB, or nil.
    static func text(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }

    /// Whether something (a file, a link, a directory…) exists at `path`, without following a final link.
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}

/// The text of an `errno` value.
package func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
