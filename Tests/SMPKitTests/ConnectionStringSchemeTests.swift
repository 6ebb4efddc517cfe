import XCTest
@testable import SMPKit

final class ConnectionStringSchemeTests: XCTestCase {
    func testEmpty() {
        assertRejected("", part: "", problem: "empty")
        assertRejected("   ", part: "", problem: "empty")
        XCTAssertEqual(rejection("")?.description, "invalid connection string \"\": it is empty")
    }

    func testNoScheme() {
        assertRejected("192.0.2.1", part: "192.0.2.1", problem: "no transport given")
        assertRejected("/dev/ttyACM0", part: "/dev/ttyACM0", problem: "no transport given")
    }

    func testUnknownScheme() {
        assertRejected("tcp:192.0.2.1", part: "tcp", problem: "unknown transport")
        assertRejected("usb:2fe3:0100", part: "usb", problem: "unknown transport")
        assertRejected("localhost:1337", part: "localhost", problem: "unknown transport")
        XCTAssertTrue(rejection("tcp:192.0.2.1")?.description.contains("\"tcp\": unknown transport; expected udp, serial or ble") == true)
    }

    func testEmptyTarget() {
        assertRejected("udp:", part: "udp:", problem: "no device given")
        assertRejected("serial:", part: "serial:", problem: "no device given")
        assertRejected("ble:", part: "ble:", problem: "no device given")
        assertRejected("udp:?timeout=1", part: "udp:?timeout=1", problem: "no device given")
        assertRejected("udp://", part: "udp://", problem: "no device given")
    }

    func testSchemeIsCaseInsensitiveAndSlashesAreAccepted() {
        XCTAssertEqual(parsed("UDP:192.0.2.1")?.target, .udp(host: "192.0.2.1", port: 1337))
        XCTAssertEqual(parsed("udp://192.0.2.1:1338")?.target, .udp(host: "192.0.2.1", port: 1338))
        XCTAssertEqual(parsed("Serial:auto")?.target, .serial(.auto))
        XCTAssertEqual(parsed("BLE:name=x")?.target, .ble(.name("x")))
        XCTAssertEqual(parsed("UDP:192.0.2.1")?.transport, .udp)
    }

    func testSurroundingWhiteSpaceIsIgnored() {
        XCTAssertEqual(parsed("  udp:192.0.2.1 \n")?.target, .udp(host: "192.0.2.1", port: 1337))
    }

    func testTransportNames() {
        XCTAssertEqual(parsed("udp:h")?.transport, .udp)
        XCTAssertEqual(parsed("serial:auto")?.transport, .serial)
        XCTAssertEqual(parsed("ble:name=n")?.transport, .ble)
    }

    func testExamplesInTheErrorHintAllParse() {
        let examples = ConnectionStringError.examples.split(whereSeparator: \.isWhitespace).map(String.init)
        XCTAssertGreaterThanOrEqual(examples.count, 10)
        for example in examples {
            XCTAssertNotNil(parsed(example), example)
        }
    }
}
