import Foundation
import SMP
import SMPSerial
import SMPSimulator
import SMPUDP
import XCTest

/// Both servers send a device's responses in the order it produced them, even when later ones
/// are due sooner (a device has one transmit queue): busy flash then a quick answer, or equal
/// delays.
final class ResponseOrderTests: XCTestCase {
    /// Answers each request with itself, delayed by 10 ms × (4 − sequence number): the first
    /// answer is due last.
    private struct DecreasingDelays: SimulatedFrameHandler {
        func deliveries(for frame: [UInt8]) async -> [SimulatedDelivery] {
            let sequence = frame.count > 6 ? Int(frame[6]) : 0
            return [SimulatedDelivery(bytes: frame, delay: .milliseconds(10 * max(0, 4 - sequence)))]
        }
    }

    private let requests = (0..<5).map { sequence in
        SMPMessage(header: SMPHeader(operation: .write, length: 0, group: .os, sequence: UInt8(sequence), command: 0), payload: ["d": "x"])
            .encoded()
    }

    /// The sequence numbers of the first `count` messages of a stream.
    private func sequences(_ inbound: AsyncThrowingStream<[UInt8], any Error>, count: Int) async throws -> [UInt8] {
        var result: [UInt8] = []
        for try await message in inbound {
            result.append(message.count > 6 ? message[6] : 0xFF)
            if result.count == count { break }
        }
        return result
    }

    func testUDPKeepsTheOrder() async throws {
        let server = UDPSimulatorServer(handler: DecreasingDelays(), host: "127.0.0.1", port: 0)
        let port = try await server.start()
        let transport = try await UDPTransport.connect(host: "127.0.0.1", port: port)
        for request in requests { try await transport.send(request) }
        let order = try await sequences(transport.inbound, count: requests.count)
        XCTAssertEqual(order, [0, 1, 2, 3, 4])
        await transport.close()
        await server.stop()
    }

    func testSerialKeepsTheOrder() async throws {
        let link = (NSTemporaryDirectory() as NSString).appendingPathComponent("smpctl-order-\(getpid())-\(UUID().uuidString.prefix(8))")
        let server = PTYSimulatorServer(handler: DecreasingDelays(), linkPath: link)
        let path = try await server.start()
        let transport = try await SerialTransport.open(path: path)
        for request in requests { try await transport.send(request) }
        let order = try await sequences(transport.inbound, count: requests.count)
        XCTAssertEqual(order, [0, 1, 2, 3, 4])
        await transport.close()
        await server.stop()
    }
}
