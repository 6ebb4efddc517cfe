#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal pair whose master end plays the device's UART: the host opens the slave
/// (through an optional symbolic link) as it would open /dev/ttyACM0.
struct PseudoTerminal: Sendable {
    /// The master descriptor, kept open for the life of the device.
    let master: Int32
    /// The slave's path, e.g. `/dev/pts/3`.
    let devicePath: String

    /// Opens a pair in raw mode (no echo, no line editing, 8-bit clean) and closes the slave
    /// end, which the host opens.
    static func open() throws(SimulatorServerError) -> PseudoTerminal {
        var master: Int32 = -1
        var slave: Int32 = -1
        var name = [CChar](repeating: 0, count: 128)
        guard openpty(&master, &slave, &name, nil, nil) == 0 else {
            throw SimulatorServerError(.pseudoTerminal, "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        var settings = termios()
        if tcgetattr(slave, &settings) == 0 {
            cfmakeraw(&settings)
            tcsetattr(slave, TCSANOW, &settings)
        }
        Glibc.close(slave)
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        let path = String(decoding: name.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return PseudoTerminal(master: master, devicePath: path)
    }

    /// Whether the host has the slave open: while nobody does, the master reports a hang-up
    /// (and reads fail with EIO).
    func hostIsConnected() -> Bool {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) >= 0 else { return false }
        return descriptor.revents & Int16(POLLHUP) == 0
    }

    /// A new descriptor for the master, for a channel to own.
    func duplicateMaster() -> Int32? {
        let copy = fcntl(master, F_DUPFD_CLOEXEC, 0)
        return copy >= 0 ? copy : nil
    }

    /// Closes the master: the host sees the device disappear.
    func close() {
        Glibc.close(master)
    }

    /// Opens a pseudo-terminal and, when `linkPath` is given, links it there; nothing is left
    /// open when the link cannot be made.
    static func open(linkedAt linkPath: String?) throws(SimulatorServerError) -> PseudoTerminal {
        let terminal = try open()
        guard let linkPath else { return terminal }
        do {
            try terminal.link(at: linkPath)
        } catch {
            terminal.close()
            throw error
        }
        return terminal
    }

    /// Makes `link` a symbolic link to the slave, replacing a stale link but never a file.
    func link(at link: String) throws(SimulatorServerError) {
        var status = stat()
        if lstat(link, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFLNK else {
                throw SimulatorServerError(.link, "\(link) exists and is not a symbolic link; refusing to replace it")
            }
            Glibc.unlink(link)
        }
        guard symlink(devicePath, link) == 0 else {
            throw SimulatorServerError(.link, "cannot create the link \(link): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes `link` if it still points to this slave.
    func unlink(link: String) {
        var target = [CChar](repeating: 0, count: 4096)
        let count = readlink(link, &target, target.count - 1)
        guard count > 0 else { return }
        let path = String(decoding: target.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if path == devicePath { Glibc.unlink(link) }
    }
}
