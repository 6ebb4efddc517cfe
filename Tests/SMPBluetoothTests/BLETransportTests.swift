import SMP
import SMPBluetooth
import SMPTestSupport
import XCTest

/// `BLETransport` against the BlueZ mock: both write and notify paths, MTUs, link loss, silence.
final class BLETransportTests: XCTestCase {
    func testEchoOverAcquiredSockets() async throws {
        let peripheral = try await startPeripheral()
        let (transport, client) = try await peripheral.connect()
        XCTAssertEqual(transport.writePath, .acquired)
        XCTAssertEqual(transport.notifyPath, .acquired)
        XCTAssertEqual(transport.mtu, 247)
        let echo = try await client.send(OSEcho("hello over ble"))
        XCTAssertEqual(echo, "hello over ble")
        await client.close()
        let stats = try peripheral.mock.stats()
        XCTAssertGreaterThan(stats["writes_acquired"] ?? 0, 0)
        XCTAssertEqual(stats["writes_value"], 0)
    }
}
