import SMP
import SMPBluetooth
import SMPTestSupport
import XCTest

/// Scanning: devices heard now and devices BlueZ already knows.
final class BLEScannerTests: XCTestCase {
    func testScanFindsAnAdvertisingSMPDevice() async throws {
        let peripheral = try await startPeripheral()
        let devices = try await BLEScanner.scan(
            filter: BLEDeviceFilter(requireSMP: true), duration: .seconds(1), busAddress: peripheral.mock.busAddress)
        XCTAssertEqual(devices.map(\.address), [MockedPeripheral.address])
        XCTAssertEqual(devices.first?.name, MockedPeripheral.name)
        XCTAssertEqual(devices.first?.offersSMP, true)
        XCTAssertNotNil(devices.first?.rssi, "heard while scanning")
    }

    func testScanListsADeviceBlueZKnowsAlready() async throws {
        let peripheral = try await startPeripheral(["--cached", "--discovery-delay", "60"])
        let devices = try await BLEScanner.scan(duration: .milliseconds(300), busAddress: peripheral.mock.busAddress)
        XCTAssertEqual(devices.map(\.address), [MockedPeripheral.address])
    }

    func testDevicesNotAdvertisingSMPAreFilteredOut() async throws {
        let peripheral = try await startPeripheral(["--no-uuid-adv"])
        let smpOnly = try await BLEScanner.scan(
            filter: BLEDeviceFilter(requireSMP: true), duration: .milliseconds(600), busAddress: peripheral.mock.busAddress)
        XCTAssertEqual(smpOnly, [])
        let every = try await BLEScanner.scan(duration: .milliseconds(600), busAddress: peripheral.mock.busAddress)
        XCTAssertEqual(every.map(\.address), [MockedPeripheral.address])
        XCTAssertEqual(every.first?.offersSMP, false)
    }

    func testConnectWaitsForADeviceThatAdvertisesLater() async throws {
        let peripheral = try await startPeripheral(["--discovery-delay", "1.5"])
        // Not there when the connect began: it waited for the device to advertise.
        let (_, client) = try await peripheral.connect()
        let echoed = try await client.send(OSEcho("late"))
        XCTAssertEqual(echoed, "late")
        await client.close()
    }
}
