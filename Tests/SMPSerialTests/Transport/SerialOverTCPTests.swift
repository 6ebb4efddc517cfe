import Foundation
import SMP
import SMPSerial
import SMPSimulator
import SMPTestSupport
import XCTest

/// A serial line served over TCP (`tcp://HOST:PORT`, as ser2net, QEMU and socat serve one): the
/// same framing and pacing over a socket instead of a tty. Here socat serves the virtual device's
/// pseudo-terminal on a loopback port.
final class SerialOverTCPTests: XCTestCase {
    func testRequestsTravelOverATCPByteStream() async throws {
        // The device alone: socat is the only one reading its pseudo-terminal.
        let server = PTYSimulatorServer(device: VirtualDevice(configuration: PTYLink.zephyrSerialDevice), linkPath: temporaryLinkPath())
        let path = try await server.start()
        defer { Task { await server.stop() } }
        let port = try freeLoopbackPort()
        let socat = try startSocat(port: port, pty: path)
        defer { socat.terminate() }
        let transport = try await connectWhenListening(port: port)
        XCTAssertEqual(transport.endpoint, "serial:tcp://127.0.0.1:\(port)")
        let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(2)))
        let text = largestEchoText(fitting: 380)
        let answer = try await client.send(OSEcho(text))
        XCTAssertEqual(answer, text)
        let short = try await client.send(OSEcho("short"))
        XCTAssertEqual(short, "short")
        await client.close()
    }

    func testNothingListeningIsReportedAtOnce() async throws {
        let port = try freeLoopbackPort()
        do {
            _ = try await SerialTransport.open(path: "tcp://127.0.0.1:\(port)")
            XCTFail("connected to a closed port")
        } catch {
            XCTAssertEqual(error.kind, .refused)
            XCTAssertTrue(error.message.contains("tcp://127.0.0.1:\(port)"), error.message)
            XCTAssertTrue(error.hint?.contains("start the serial server") == true, error.hint ?? "")
        }
    }

    func testABadEndpointIsRejected() async throws {
        for path in ["tcp://127.0.0.1", "tcp://:5000", "tcp://host:0", "tcp://host:99999"] {
            XCTAssertNil(SerialEndpoint(path: path), path)
        }
        XCTAssertEqual(SerialEndpoint(path: "tcp://[::1]:5000"), .tcp(host: "::1", port: 5000))
        XCTAssertEqual(SerialEndpoint(path: "tcp://[::1]:5000")?.description, "tcp://[::1]:5000")
        XCTAssertEqual(SerialEndpoint(path: "/dev/ttyACM0"), .device(path: "/dev/ttyACM0"))
    }

    /// socat serving `pty` on 127.0.0.1:`port` (one client, raw bytes).
    private func startSocat(port: Int, pty: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["socat", "TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr", "FILE:\(pty),raw,echo=0"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/socat") else {
            try ExternalTool.unavailable("socat is not installed (apt-get install socat)")
            return process
        }
        try process.run()
        return process
    }

    /// Connects once socat listens (it needs a moment to start).
    private func connectWhenListening(port: Int) async throws -> SerialTransport {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            let refused: Bool
            do {
                return try await SerialTransport.open(path: "tcp://127.0.0.1:\(port)")
            } catch {
                refused = error.kind == .refused
                if !refused || ContinuousClock.now >= deadline { throw error }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A loopback TCP port that nothing listens on right now.
    private func freeLoopbackPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw XCTSkip("cannot bind a loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
