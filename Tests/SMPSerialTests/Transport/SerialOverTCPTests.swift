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
        let link = try await SocatTCPLink.start()
        XCTAssertEqual(link.transport.endpoint, "serial:tcp://127.0.0.1:\(link.port)")
        let client = SMPClient(transport: link.transport, configuration: SMPClientConfiguration(timeout: .seconds(2)))
        let text = largestEchoText(fitting: 380)
        let answer = try await client.send(OSEcho(text))
        XCTAssertEqual(answer, text)
        let short = try await client.send(OSEcho("short"))
        XCTAssertEqual(short, "short")
        await client.close()
        await link.stop()
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
        XCTAssertEqual(SerialEndpoint(path: "tcp://[::1]:5000"), .server(SerialServerAddress(kind: .raw, host: "::1", port: 5000)))
        XCTAssertEqual(SerialEndpoint(path: "tcp://[::1]:5000")?.description, "tcp://[::1]:5000")
        XCTAssertEqual(SerialEndpoint(path: "/dev/ttyACM0"), .device(path: "/dev/ttyACM0"))
    }
}
