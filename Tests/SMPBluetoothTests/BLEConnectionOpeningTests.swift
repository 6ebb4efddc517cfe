import Foundation
import SMP
import SMPKit
import SMPTestSupport
import XCTest

/// `ble:` connection strings open a BLE link through SMPKit (the bus from DBUS_SYSTEM_BUS_ADDRESS).
final class BLEConnectionOpeningTests: XCTestCase {
    func testOpenByAddressAndByName() async throws {
        let peripheral = try await startPeripheral()
        setenv("DBUS_SYSTEM_BUS_ADDRESS", peripheral.mock.busAddress, 1)
        defer { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
        for text in ["ble:c0:ff:ee:00:00:01?timeout=5", "ble:name=Zephyr?timeout=5&mtu=64"] {
            let client = try await SMPConnection.open(text)
            let echoed = try await client.send(OSEcho(text))
            XCTAssertEqual(echoed, text)
            await client.close()
        }
    }

    func testTheTimeoutOptionBoundsFindingTheDevice() async throws {
        let peripheral = try await startPeripheral()
        setenv("DBUS_SYSTEM_BUS_ADDRESS", peripheral.mock.busAddress, 1)
        defer { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
        do {
            _ = try await SMPConnection.open("ble:name=Nobody?timeout=1")
            XCTFail("opened a device that does not exist")
        } catch let error as SMPError {
            guard case .transport(let transportError) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(transportError.kind, .notFound)
            XCTAssertTrue(transportError.message.contains("no device named \"Nobody\" was found within 1.0 seconds"), transportError.message)
        }
    }
}

extension BLEConnectionOpeningTests {
    func testReopeningAfterAResetWaitsUntilTheDeviceAdvertisesAgain() async throws {
        let peripheral = try await startPeripheral(["--reboot-time", "1.5", "--connect-timeout", "0.3"])
        setenv("DBUS_SYSTEM_BUS_ADDRESS", peripheral.mock.busAddress, 1)
        defer { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
        let client = try await SMPConnection.open("ble:\(MockedPeripheral.address)?timeout=10")
        try await client.send(OSReset())
        try await Task.sleep(for: .milliseconds(500))  // the device drops the link shortly after answering
        await client.close()
        let reopened = try await SMPConnection.open("ble:\(MockedPeripheral.address)?timeout=10")
        let echoed = try await reopened.send(OSEcho("back"))
        XCTAssertEqual(echoed, "back")
        await reopened.close()
        let stats = try peripheral.mock.stats()
        XCTAssertEqual(stats["resets"], 1)
        XCTAssertGreaterThan(stats["connect_failures"] ?? 0, 0, "the first attempts came while the device was rebooting")
    }
}
