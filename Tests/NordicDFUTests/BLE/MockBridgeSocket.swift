#if canImport(Glibc)
import Glibc
#endif
import SMPSimulator
import XCTest

/// The BlueZ mock's end of the Nordic DFU bridge, played by a test: a UDP socket on loopback
/// that sends ``NordicDFUBridgeEvent``s to a ``NordicDFUDatagramServer`` and reads its
/// ``NordicDFUBridgeCommand``s (each read gives up after 10 s).
final class MockBridgeSocket {
    private let descriptor: Int32

    /// A socket connected to the server's port on 127.0.0.1.
    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXFailure("socket", errno) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw POSIXFailure("connect", errno)
        }
    }

    deinit { close(descriptor) }

    /// Sends one event.
    func send(_ event: NordicDFUBridgeEvent) throws {
        try send(datagram: event.datagram)
    }

    /// Sends any datagram.
    func send(datagram bytes: [UInt8]) throws {
        guard bytes.withUnsafeBytes({ Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }) == bytes.count else {
            throw POSIXFailure("send", errno)
        }
    }

    /// Reads the next command.
    func receive(file: StaticString = #filePath, line: UInt = #line) throws -> NordicDFUBridgeCommand {
        var buffer = [UInt8](repeating: 0, count: 2048)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw POSIXFailure("recv (nothing within 10 s?)", errno) }
        return try XCTUnwrap(NordicDFUBridgeCommand(datagram: Array(buffer.prefix(count))), "malformed command", file: file, line: line)
    }

    /// Sends an event and reads the one notification it must cause.
    func notification(after event: NordicDFUBridgeEvent, file: StaticString = #filePath, line: UInt = #line) throws -> [UInt8] {
        try send(event)
        guard case .notify(let bytes) = try receive(file: file, line: line) else {
            XCTFail("expected a notification after \(event)", file: file, line: line)
            return []
        }
        return bytes
    }
}

/// A failed system call.
struct POSIXFailure: Error, CustomStringConvertible {
    var call: String
    var code: Int32

    init(_ call: String, _ code: Int32) {
        self.call = call
        self.code = code
    }

    var description: String { "\(call): \(String(cString: strerror(code)))" }
}
