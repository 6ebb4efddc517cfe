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
        let socat = try FixtureTools.require("socat", package: "socat")
        let port = try LoopbackPorts.freeTCPPort()
        let scratch = try FixtureScratch.makeFolder("serial-over-tcp")
        let bridge = try FixtureProcess(
            name: "socat", executable: socat, arguments: ["TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr", "FILE:\(path),raw,echo=0"],
            workingDirectory: scratch, logURL: scratch.appendingPathComponent("socat.log"))
        defer { bridge.stop() }
        // socat serves one connection: the transport's own is the first (no probe connection).
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

    /// Connects once socat listens (it needs a moment to start).
    private func connectWhenListening(port: Int) async throws -> SerialTransport {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            do {
                return try await SerialTransport.open(path: "tcp://127.0.0.1:\(port)")
            } catch {
                if error.kind != .refused || ContinuousClock.now >= deadline { throw error }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func testNothingListeningIsReportedAtOnce() async throws {
        let port = try LoopbackPorts.freeTCPPort()
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
}
