import XCTest
@testable import SMPKit

final class ConnectionStringRoundTripTests: XCTestCase {
    /// `text` parses, prints as `canonical`, and the printed form parses to the same value.
    private func assertRoundTrip(_ text: String, _ canonical: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let connection = parsed(text, file: file, line: line) else { return }
        XCTAssertEqual(connection.description, canonical, file: file, line: line)
        XCTAssertEqual(parsed(connection.description, file: file, line: line), connection, file: file, line: line)
    }

    func testUDP() {
        assertRoundTrip("udp:192.0.2.10", "udp:192.0.2.10:1337")
        assertRoundTrip("udp:192.0.2.10:1338", "udp:192.0.2.10:1338")
        assertRoundTrip("udp:device.local", "udp:device.local:1337")
        assertRoundTrip("udp://device.local:9", "udp:device.local:9")
        assertRoundTrip("UDP:192.0.2.10", "udp:192.0.2.10:1337")
    }

    func testIPv6() {
        assertRoundTrip("udp:[2001:db8::1]:1337", "udp:[2001:db8::1]:1337")
        assertRoundTrip("udp:[fe80::1%eth0]:1337", "udp:[fe80::1%eth0]:1337")
        assertRoundTrip("udp:[fe80::1%25eth0]:2000", "udp:[fe80::1%eth0]:2000")
        assertRoundTrip("udp:fe80::1%25eth0", "udp:[fe80::1%eth0]:1337")
        assertRoundTrip("udp:2001:db8::1", "udp:[2001:db8::1]:1337")
    }

    func testSerial() {
        assertRoundTrip("serial:/dev/ttyACM0", "serial:/dev/ttyACM0")
        assertRoundTrip("serial:/dev/ttyACM0?baud=115200", "serial:/dev/ttyACM0?baud=115200")
        assertRoundTrip("serial:usb=2FE3:0100", "serial:usb=2fe3:0100")
        assertRoundTrip("serial:usb=00ab:000c:XYZ", "serial:usb=00ab:000c:XYZ")
        assertRoundTrip("serial:serial-number=0123ABCD", "serial:serial-number=0123ABCD")
        assertRoundTrip("serial:auto", "serial:auto")
    }

    func testBLE() {
        assertRoundTrip("ble:aa:bb:cc:dd:ee:ff", "ble:AA:BB:CC:DD:EE:FF")
        assertRoundTrip("ble:name=Zephyr", "ble:name=Zephyr")
    }

    func testOptionsAreWrittenInGrammarOrder() {
        assertRoundTrip("udp:h?mtu=1280&retries=4&timeout=2", "udp:h:1337?timeout=2&retries=4&mtu=1280")
        assertRoundTrip("udp:h?timeout=2.5", "udp:h:1337?timeout=2.5")
        assertRoundTrip("udp:h?timeout=0.05", "udp:h:1337?timeout=0.05")
        assertRoundTrip("serial:auto?flow=RTSCTS&line=64&baud=9600", "serial:auto?baud=9600&line=64&flow=rtscts")
        assertRoundTrip("serial:auto?flow=none", "serial:auto?flow=none")
        assertRoundTrip("ble:name=Zephyr?pair=yes&adapter=hci0", "ble:name=Zephyr?adapter=hci0&pair=1")
        assertRoundTrip("ble:name=Zephyr?pair=no", "ble:name=Zephyr?pair=0")
    }

    func testBuiltValuesPrintAsConnectionStrings() {
        var options = ConnectionOptions()
        options.retries = 3
        let connection = ConnectionString(target: .serial(.usb(vendorID: 0x2FE3, productID: 0x1, serialNumber: nil)), options: options)
        XCTAssertEqual(connection.description, "serial:usb=2fe3:0001?retries=3")
        XCTAssertEqual(parsed(connection.description), connection)
    }
}
