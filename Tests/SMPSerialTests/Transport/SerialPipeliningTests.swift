import SMP
import SMPSerial
import SMPSimulator
import XCTest

/// Several requests in flight on one serial link: their lines follow each other, the answers come
/// back in order, and the client matches them.
final class SerialPipeliningTests: XCTestCase {
    func testManyRequestsInFlight() async throws {
        let link = try await PTYLink.start()
        let client = link.client
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let text = String(repeating: "\(index % 10)", count: 10 + index * 4)
                    let answer = try await client.send(OSEcho(text))
                    XCTAssertEqual(answer, text)
                }
            }
            try await group.waitForAll()
        }
        // 64 echoes, the MCUmgr parameters read before the first request over 64 bytes, and any
        // probe a slow answer drew: every message answered.
        XCTAssertGreaterThanOrEqual(link.transport.statistics.framing.packets, 65)
        XCTAssertEqual(link.transport.statistics.messagesSent, link.transport.statistics.framing.packets)
        await link.stop()
    }

    func testRequestsInFlightOnAPacedLink() async throws {
        let link = try await PTYLink.start(simulator: PTYSimulatorOptions(baudRate: 460_800))
        let client = link.client
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<12 {
                group.addTask {
                    let text = String(repeating: "p", count: 300 + index)
                    let answer = try await client.send(OSEcho(text))
                    XCTAssertEqual(answer, text)
                }
            }
            try await group.waitForAll()
        }
        let retransmissions = await client.statistics.retransmissions
        XCTAssertEqual(retransmissions, 0)
        await link.stop()
    }
}
