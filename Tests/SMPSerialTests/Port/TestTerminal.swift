#if canImport(Glibc)
import Glibc
#endif
import SMPTestSupport
import XCTest

/// A pseudo-terminal for tests that play the device by hand: write to `master`, open `slavePath`.
final class TestTerminal {
    let master: Int32
    let slavePath: String

    init() throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        var name = [CChar](repeating: 0, count: 128)
        guard openpty(&master, &slave, &name, nil, nil) == 0 else {
            try ExternalTool.unavailable("no pseudo-terminals here: openpty failed with errno \(errno)")
        }
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)
        close(slave)
        self.master = master
        slavePath = String(decoding: name.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Writes bytes as the device.
    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
    }

    /// Reads what the host sent, waiting up to `timeout` for the first byte.
    func read(timeout: Duration = .seconds(1)) -> [UInt8] {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout / .milliseconds(1))
        guard poll(&descriptor, 1, milliseconds) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = Glibc.read(master, &buffer, buffer.count)
        return count > 0 ? Array(buffer.prefix(count)) : []
    }

    deinit { close(master) }
}
