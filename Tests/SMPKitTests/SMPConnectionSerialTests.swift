import Foundation
import SMP
import SMPSerial
import SMPSimulator
import XCTest
@testable import SMPKit

/// `serial:` connection strings open a real pseudo-terminal served by the virtual device.
final class SMPConnectionSerialTests: XCTestCase {
    private func linkPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("smpkit-\(UUID().uuidString.prefix(8))").path
    }

    private func startDevice(at link: String, bufferSize: Int = 1024) async throws -> PTYSimulatorServer {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(bufferSize: bufferSize))
        let server = PTYSimulatorServer(device: device, linkPath: link)
        _ = try await server.start()
        return server
    }

    func testOptionsReachThePortAndTheClientWorks() async throws {
        let link = linkPath()
        let server = try await startDevice(at: link)
        let client = try await SMPConnection.open("serial:\(link)?baud=1000000&mtu=600&line=96&timeout=2&retries=1")
        let transport = try XCTUnwrap(client.transport as? SerialTransport)
        XCTAssertEqual(transport.maximumMessageSize, 600)
        XCTAssertEqual(transport.deviceBufferOverhead, 4)
        XCTAssertEqual(client.configuration.retries, 1)
        let reply = try await client.send(OSEcho("over a pty"))
        XCTAssertEqual(reply, "over a pty")
        let limit = await client.maximumMessageSize()
        XCTAssertEqual(limit, 600, "min(link 600, buf_size 1024 − 4)")
        await client.close()
        await server.stop()
    }

    func testTheDeviceBufferLessFramingLimitsRequests() async throws {
        let link = linkPath()
        let server = try await startDevice(at: link, bufferSize: 256)
        let client = try await SMPConnection.open("serial:\(link)?mtu=4000")
        let limit = await client.maximumMessageSize()
        XCTAssertEqual(limit, 252, "buf_size 256 less the 2-byte length and 2-byte CRC")
        do {
            _ = try await client.send(OSEcho(String(repeating: "x", count: 300)))
            XCTFail("a request over buf_size − 4 was sent")
        } catch {
            guard case .requestTooLarge(_, _, let limit, let source) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(limit, 252)
            XCTAssertTrue(source.contains("less 4 bytes of framing"), source)
        }
        await client.close()
        await server.stop()
    }

    func testTheSameClientCarriesOnWhenTheDeviceComesBackAtItsPath() async throws {
        let link = linkPath()
        let first = try await startDevice(at: link)
        let client = try await SMPConnection.open("serial:\(link)?timeout=1&retries=3")
        let before = try await client.send(OSEcho("before"))
        XCTAssertEqual(before, "before")
        await first.stop()
        try await Task.sleep(for: .milliseconds(300))
        let second = try await startDevice(at: link)
        let after = try await client.send(OSEcho("after"))
        XCTAssertEqual(after, "after")
        await client.close()
        await second.stop()
    }
}
