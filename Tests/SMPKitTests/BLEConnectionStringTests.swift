import XCTest
@testable import SMPKit

final class BLEConnectionStringTests: XCTestCase {
    // MARK: Valid forms

    func testAddress() {
        XCTAssertEqual(parsed("ble:AA:BB:CC:DD:EE:FF")?.target, .ble(.address("AA:BB:CC:DD:EE:FF")))
    }

    func testAddressIsUpperCased() {
        XCTAssertEqual(parsed("ble:aa:bb:cc:dd:ee:0f")?.target, .ble(.address("AA:BB:CC:DD:EE:0F")))
        XCTAssertEqual(parsed("ble:Aa:bB:01:23:45:67")?.target, .ble(.address("AA:BB:01:23:45:67")))
    }

    func testName() {
        XCTAssertEqual(parsed("ble:name=Zephyr")?.target, .ble(.name("Zephyr")))
        XCTAssertEqual(parsed("ble:name=My Board:1")?.target, .ble(.name("My Board:1")))
    }

    func testNameIsKeptAsWritten() {
        XCTAssertEqual(parsed("ble:name=zephyr")?.target, .ble(.name("zephyr")))
    }

    // MARK: Malformed parts

    func testFiveOctets() {
        assertRejected("ble:AA:BB:CC:DD:EE", part: "AA:BB:CC:DD:EE", problem: "expected a Bluetooth address AA:BB:CC:DD:EE:FF")
    }

    func testSevenOctets() {
        assertRejected("ble:AA:BB:CC:DD:EE:FF:00", part: "AA:BB:CC:DD:EE:FF:00", problem: "Bluetooth address")
    }

    func testNonHexOctets() {
        assertRejected("ble:GG:BB:CC:DD:EE:FF", part: "GG:BB:CC:DD:EE:FF", problem: "Bluetooth address")
        assertRejected("ble:AA:BB:CC:DD:EE:FZ", part: "AA:BB:CC:DD:EE:FZ", problem: "Bluetooth address")
    }

    func testSignedOctets() {
        assertRejected("ble:+A:BB:CC:DD:EE:FF", part: "+A:BB:CC:DD:EE:FF", problem: "Bluetooth address")
    }

    func testOctetsOfTheWrongWidth() {
        assertRejected("ble:A:BB:CC:DD:EE:FFF", part: "A:BB:CC:DD:EE:FFF", problem: "Bluetooth address")
        assertRejected("ble:AA:BB:CC:DD:EE:", part: "AA:BB:CC:DD:EE:", problem: "Bluetooth address")
        assertRejected("ble:AABBCCDDEEFF", part: "AABBCCDDEEFF", problem: "Bluetooth address")
    }

    func testEmptyName() {
        assertRejected("ble:name=", part: "name=", problem: "the device name is empty")
        assertRejected("ble:name=?pair=1", part: "name=", problem: "the device name is empty")
    }
}
