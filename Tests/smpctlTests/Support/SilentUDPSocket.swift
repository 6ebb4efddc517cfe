import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A UDP socket on 127.0.0.1 that receives and never answers: a device that is switched off
/// behind a working network. Counts what arrives, so tests can tell how often a request was sent.
final class SilentUDPSocket {
    private let descriptor: Int32
    /// The bound port.
    let port: Int

    /// `udp:127.0.0.1:PORT`.
    var endpoint: String { "udp:127.0.0.1:\(port)" }

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(descriptor)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Reads every datagram waiting now and returns how many there were.
    func drain() -> Int {
        var count = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT)) >= 0 { count += 1 }
        return count
    }

    deinit { close(descriptor) }

    /// A local UDP port with nothing bound to it (bound once, then released), so that datagrams
    /// sent there draw an ICMP port-unreachable answer.
    static func unusedPort() throws -> Int {
        try SilentUDPSocket().port
    }
}
