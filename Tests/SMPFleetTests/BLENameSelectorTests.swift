import SMPFleet
import SMPTestSupport
import XCTest

/// `ble:name=GLOB` against the mock BlueZ: a scan, and every device whose name matches.
final class BLENameSelectorTests: XCTestCase {
    func testANamePatternScansAndNamesEachMatchByItsAdvertisedName() async throws {
        let mock = try await BlueZMock.start(arguments: [
            "--device", "C0:FF:EE:00:00:02,Zephyr-2,9", "--device", "C0:FF:EE:00:00:01,Zephyr-1,9", "--device", "C0:FF:EE:00:00:03,Other,9",
            "--discovery-delay", "0.05",
        ])
        defer { mock.stop() }
        let selector = try TargetSelector(parsing: "ble:name=Zephyr-*?scan=0.5&adapter=hci0")
        XCTAssertTrue(selector.mayMatchMany)
        let found = try await selector.resolve(bluetoothBus: mock.busAddress)
        XCTAssertEqual(found.map(\.name), ["Zephyr-1", "Zephyr-2"])
        XCTAssertEqual(found.map(\.connection.description), ["ble:C0:FF:EE:00:00:01?adapter=hci0", "ble:C0:FF:EE:00:00:02?adapter=hci0"])
        XCTAssertEqual(found.map(\.identity.address), ["C0:FF:EE:00:00:01", "C0:FF:EE:00:00:02"])

        do {
            _ = try await TargetSelector(parsing: "ble:name=Nordic*?scan=0.3").resolve(bluetoothBus: mock.busAddress)
            XCTFail("nothing is named Nordic*")
        } catch {
            XCTAssertEqual(error.kind, .notFound)
            XCTAssertEqual(error.message, "no Bluetooth LE device named like \"Nordic*\" was heard in a 0.3 s scan (\"ble:name=Nordic*?scan=0.3\")")
            XCTAssertTrue(error.hint?.contains("C0:FF:EE:00:00:03  Other") == true, error.hint ?? "")
        }
    }
}
