#if canImport(Glibc)
import Glibc
#endif

/// The symbolic links udev makes to serial ports, from the `DEVLINKS` property or, without udevd's
/// database, from the link folders themselves.
package enum DeviceLinks {
    /// `/dev/serial/by-id`: links named after the USB vendor, product, serial number and interface.
    package static let byIDDirectory = "/dev/serial/by-id"
    /// `/dev/serial/by-path`: links named after the USB port or bus address.
    package static let byPathDirectory = "/dev/serial/by-path"
    /// `/dev/smp`: links made by udev/60-smpctl.rules.
    package static let smpDirectory = "/dev/smp"

    /// The folders scanned when `DEVLINKS` is missing.
    package static let scannedDirectories = [byIDDirectory, byPathDirectory, smpDirectory]

    /// The links of a `DEVLINKS` property value (space-separated paths).
    package static func parse(property value: String) -> [String] {
        value.split(separator: " ").map(String.init).filter { $0.hasPrefix("/") }
    }

    /// Whether two paths name the same device node: they lead to the same path once links are
    /// followed, or to the same character device number.
    package static func sameDevice(_ first: String, _ second: String) -> Bool {
        if first == second || followingLinks(first) == followingLinks(second) { return true }
        guard let a = characterDevice(first), let b = characterDevice(second) else { return false }
        return a == b
    }

    /// The path after following its final component's symbolic links (at most 40), with `.` and
    /// `..` resolved lexically.
    ///
    /// Not `realpath(3)`: umockdev's preload (0.17) corrupts the heap or crashes in `realpath` on
    /// emulated device nodes, and the tests run under it; `readlink` works there.
    package static func followingLinks(_ path: String) -> String {
        var current = normalized(path.hasPrefix("/") ? path : FileSystem.currentDirectory + "/" + path)
        for _ in 0..<40 {
            guard let target = FileSystem.linkTarget(current) else { return current }
            current = normalized(target.hasPrefix("/") ? target : current + "/../" + target)
        }
        return current
    }

    /// An absolute path with empty, `.` and `..` components resolved: `/dev/serial/by-id/../../ttyACM0` → `/dev/ttyACM0`.
    static func normalized(_ path: String) -> String {
        var components: [Substring] = []
        for component in path.split(separator: "/") where component != "." {
            if component == ".." { _ = components.popLast() } else { components.append(component) }
        }
        return "/" + components.joined(separator: "/")
    }

    /// The device number of a character device (following links); nil for anything else or 0.
    package static func characterDevice(_ path: String) -> UInt64? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFCHR, status.st_rdev != 0 else { return nil }
        return UInt64(status.st_rdev)
    }
}
