import SMP
import SMPSerial
import SMPSimulator
import XCTest

/// A request that cannot fit the device's buffer is refused before it is sent, also when the
/// device does not report its buffer: then against the assumed one, which the caller can set.
final class RequestSizeRefusalTests: XCTestCase {
    /// A device that answers nothing at all (no MCUmgr parameters either).
    private func silentLink(client: SMPClientConfiguration) async throws -> (ScriptedSerialDevice, SerialTransport, SMPClient, () async -> Void) {
        let device = ScriptedSerialDevice()
        let server = PTYSimulatorServer(handler: device, linkPath: temporaryLinkPath())
        let path = try await server.start()
        let transport = try await SerialTransport.open(path: path, logger: quietLogger)
        let client = SMPClient(transport: transport, configuration: client)
        return (device, transport, client, { await client.close(); await server.stop() })
    }

    func testTooLargeForTheAssumedBufferIsRefusedUnsent() async throws {
        let (device, _, client, stop) = try await silentLink(client: SMPClientConfiguration(timeout: .milliseconds(300), retries: 0))
        do {
            _ = try await client.send(OSEcho(String(repeating: "x", count: 500)))
            XCTFail("sent a request larger than the assumed buffer")
        } catch {
            guard case .requestTooLarge(_, let size, let limit, let source) = error else { return XCTFail("\(error)") }
            XCTAssertGreaterThan(size, 500)
            XCTAssertEqual(limit, 380)
            XCTAssertTrue(source.contains("assumed buf_size 384"), source)
            XCTAssertTrue(source.contains("?buf-size="), source)
        }
        let received = await device.received
        XCTAssertFalse(received.isEmpty, "the parameters were asked for")
        XCTAssertTrue(received.allSatisfy { $0.count < 64 }, "the echo did not go out: \(received.map(\.count))")
        await stop()
    }

    func testAnAssumedBufferSizeFromTheCallerIsUsed() async throws {
        let (device, _, client, stop) = try await silentLink(
            client: SMPClientConfiguration(timeout: .milliseconds(300), retries: 0, assumedBufferSize: 2048))
        do {
            _ = try await client.send(OSEcho(String(repeating: "x", count: 500)))
            XCTFail("the silent device answered")
        } catch {
            guard case .timeout = error else { return XCTFail("\(error)") }
        }
        let received = await device.received
        XCTAssertEqual(received.filter { $0.count > 500 }.count, 1, "the echo went out once: \(received.map(\.count))")
        await stop()
    }
}
