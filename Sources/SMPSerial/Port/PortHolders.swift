#if canImport(Glibc)
import Glibc
#endif

/// A process that has a device open.
struct PortHolder: Sendable, Hashable, CustomStringConvertible {
    /// Its process ID.
    var pid: Int32
    /// Its command name (`/proc/PID/comm`), if readable.
    var name: String?

    var description: String { name.map { "\($0) (pid \(pid))" } ?? "pid \(pid)" }
}

/// Finds the processes holding a device open, by reading the `/proc/*/fd` symbolic links.
///
/// Only processes whose descriptors we may read are found (all of them as root, our own user's
/// otherwise), so an empty answer does not prove the port is free.
enum PortHolders {
    /// The processes with a descriptor on `devicePath` (a canonical path such as `/dev/ttyACM0`),
    /// skipping descriptor `exceptDescriptor` of this process.
    static func holding(_ devicePath: String, exceptDescriptor: Int32? = nil, proc: String = "/proc") -> [PortHolder] {
        let ownPID = getpid()
        var holders: [PortHolder] = []
        for entry in FileSystem.entries(of: proc) {
            guard let pid = Int32(entry) else { continue }
            let descriptors = "\(proc)/\(entry)/fd"
            let holds = FileSystem.entries(of: descriptors).contains { descriptor in
                if pid == ownPID, let exceptDescriptor, Int32(descriptor) == exceptDescriptor { return false }
                return FileSystem.linkTarget("\(descriptors)/\(descriptor)") == devicePath
            }
            if holds { holders.append(PortHolder(pid: pid, name: FileSystem.firstLine(of: "\(proc)/\(entry)/comm"))) }
        }
        return holders.sorted { $0.pid < $1.pid }
    }

    /// The other processes with a descriptor on the device behind `path` (a link is followed);
    /// empty for a path that is not a file (a `tcp://` serial server) or when none is found.
    ///
    /// On a pseudo-terminal (`/dev/pts/N`), a process that also holds its master side is the
    /// link's other end (socat bridging a device, a simulator), not a rival reader: it is left out.
    static func others(holding path: String, proc: String = "/proc") -> [PortHolder] {
        guard let device = FileSystem.canonicalPath(path) else { return [] }
        let ownPID = getpid()
        let terminal = device.hasPrefix("/dev/pts/") ? Int(device.dropFirst("/dev/pts/".count)) : nil
        return holding(device, proc: proc).filter { holder in
            holder.pid != ownPID && !(terminal.map { holdsMaster(ofTerminal: $0, pid: holder.pid, proc: proc) } ?? false)
        }
    }

    /// Whether process `pid` has the master side of pseudo-terminal `number` open: a descriptor on
    /// `/dev/ptmx` whose `fdinfo` names that terminal (`tty-index:`, Linux 5.0 and later).
    static func holdsMaster(ofTerminal number: Int, pid: Int32, proc: String = "/proc") -> Bool {
        let descriptors = "\(proc)/\(pid)/fd"
        return FileSystem.entries(of: descriptors).contains { descriptor in
            guard let target = FileSystem.linkTarget("\(descriptors)/\(descriptor)"), target == "/dev/ptmx" || target == "/dev/pts/ptmx",
                  let info = FileSystem.text(of: "\(proc)/\(pid)/fdinfo/\(descriptor)")
            else { return false }
            return info.split(separator: "\n").contains { (line: Substring) in
                line.hasPrefix("tty-index:") && Int(line.dropFirst("tty-index:".count).drop { $0 == " " || $0 == "\t" }) == number
            }
        }
    }
}
