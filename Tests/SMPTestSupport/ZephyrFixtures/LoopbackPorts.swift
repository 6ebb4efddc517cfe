import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Ports on 127.0.0.1 (and ::1) for fixtures: a free TCP port, waiting until one accepts, and
/// whether a UDP port is free.
public enum LoopbackPorts {
    /// A TCP port on 127.0.0.1 that nothing listens on right now (the kernel's choice).
    public static func freeTCPPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw PortError(message: "socket(): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw PortError(message: "bind(127.0.0.1:0): \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw PortError(message: "getsockname(): \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is accepted now (the connection is closed at once).
    public static func acceptsConnections(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Waits until 127.0.0.1:`port` accepts connections while `process` runs.
    public static func waitUntilAccepting(port: Int, process: FixtureProcess, timeout: TimeInterval) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !acceptsConnections(port: port) {
            guard process.isRunning else {
                throw FixtureProcessFailure(message: "\(process.name) ended before it listened on 127.0.0.1:\(port)", log: process.log)
            }
            guard Date() < deadline else {
                throw FixtureProcessFailure(message: "\(process.name) did not listen on 127.0.0.1:\(port) within \(timeout) s", log: process.log)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Whether a UDP port can be bound on 127.0.0.1 and on ::1 (nobody else serves on it).
    public static func udpPortIsFree(_ port: Int) -> Bool {
        let v4 = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard v4 >= 0 else { return false }
        defer { close(v4) }
        var address = loopback(port: port)
        let boundV4 = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(v4, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let v6 = socket(AF_INET6, Int32(SOCK_DGRAM.rawValue), 0)
        guard v6 >= 0 else { return boundV4 == 0 }
        defer { close(v6) }
        var address6 = sockaddr_in6()
        address6.sin6_family = sa_family_t(AF_INET6)
        address6.sin6_port = UInt16(port).bigEndian
        address6.sin6_addr = in6addr_loopback
        let boundV6 = withUnsafePointer(to: &address6) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(v6, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        return boundV4 == 0 && (boundV6 == 0 || errno == EADDRNOTAVAIL)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A socket call failed.
    public struct PortError: Error, CustomStringConvertible {
        /// What failed.
        public var message: String
        public var description: String { message }
    }
}
