import XCTest
@testable import SMPKit

final class SerialConnectionStringTests: XCTestCase {
    private func target(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ConnectionString.Target? {
        parsed(text, file: file, line: line)?.target
    }

    // MARK: Valid forms

    func testDevicePath() {
        XCTAssertEqual(target("serial:/dev/ttyACM0"), .serial(.path("/dev/ttyACM0")))
        XCTAssertEqual(target("serial:/dev/serial/by-id/usb-ZEPHYR_Board_0123ABCD-if00"),
                       .serial(.path("/dev/serial/by-id/usb-ZEPHYR_Board_0123ABCD-if00")))
    }

    func testDevicePathWithBaud() {
        let connection = parsed("serial:/dev/ttyACM0?baud=115200")
        XCTAssertEqual(connection?.target, .serial(.path("/dev/ttyACM0")))
        XCTAssertEqual(connection?.options.baud, 115_200)
    }

    func testUSBVendorAndProduct() {
        XCTAssertEqual(target("serial:usb=2fe3:0100"), .serial(.usb(vendorID: 0x2FE3, productID: 0x0100, serialNumber: nil)))
        XCTAssertEqual(target("serial:usb=2FE3:01aB"), .serial(.usb(vendorID: 0x2FE3, productID: 0x01AB, serialNumber: nil)))
    }

    func testUSBVendorProductAndSerial() {
        XCTAssertEqual(target("serial:usb=2fe3:0100:0123ABCD"),
                       .serial(.usb(vendorID: 0x2FE3, productID: 0x0100, serialNumber: "0123ABCD")))
        XCTAssertEqual(target("serial:usb=2fe3:0100:AB:CD"),
                       .serial(.usb(vendorID: 0x2FE3, productID: 0x0100, serialNumber: "AB:CD")))
    }

    func testSerialNumber() {
        XCTAssertEqual(target("serial:serial-number=0123ABCD"), .serial(.serialNumber("0123ABCD")))
    }

    func testAuto() {
        XCTAssertEqual(target("serial:auto"), .serial(.auto))
    }

    // MARK: Malformed parts

    func testUSBWithShortIDs() {
        assertRejected("serial:usb=2fe3:100", part: "usb=2fe3:100", problem: "4-digit hex IDs")
        assertRejected("serial:usb=fe3:0100", part: "usb=fe3:0100", problem: "4-digit hex IDs")
        assertRejected("serial:usb=2fe3", part: "usb=2fe3", problem: "usb=VID:PID")
        assertRejected("serial:usb=", part: "usb=", problem: "usb=VID:PID")
    }

    func testUSBWithLongIDs() {
        assertRejected("serial:usb=02fe3:0100", part: "usb=02fe3:0100", problem: "4-digit hex IDs")
    }

    func testUSBWithNonHexIDs() {
        assertRejected("serial:usb=zzzz:0100", part: "usb=zzzz:0100", problem: "4-digit hex IDs")
        assertRejected("serial:usb=2fe3:01g0", part: "usb=2fe3:01g0", problem: "4-digit hex IDs")
    }

    func testUSBWithSignedIDs() {
        assertRejected("serial:usb=+fe3:0100", part: "usb=+fe3:0100", problem: "4-digit hex IDs")
        assertRejected("serial:usb=2fe3:-000", part: "usb=2fe3:-000", problem: "4-digit hex IDs")
    }

    func testUSBWithEmptySerial() {
        assertRejected("serial:usb=2fe3:0100:", part: "usb=2fe3:0100:", problem: "the serial number after VID:PID is empty")
    }

    func testEmptySerialNumber() {
        assertRejected("serial:serial-number=", part: "serial-number=", problem: "the serial number is empty")
    }

    func testRelativePath() {
        assertRejected("serial:ttyACM0", part: "ttyACM0", problem: "expected a device path such as /dev/ttyACM0")
        assertRejected("serial:dev/ttyACM0", part: "dev/ttyACM0", problem: "device path")
        assertRejected("serial:Auto", part: "Auto", problem: "device path")
    }
}
