import XCTest
@testable import SMPKit

final class ConnectionOptionsTests: XCTestCase {
    // MARK: Valid options

    func testCommonOptions() {
        let options = parsed("udp:[fe80::1%eth0]:1337?timeout=2&retries=4&mtu=1280")?.options
        XCTAssertEqual(options?.timeout, 2)
        XCTAssertEqual(options?.retries, 4)
        XCTAssertEqual(options?.mtu, 1280)
        XCTAssertNil(options?.baud)
    }

    func testFractionalTimeout() {
        XCTAssertEqual(parsed("udp:h?timeout=2.5")?.options.timeout, 2.5)
        XCTAssertEqual(parsed("udp:h?timeout=0.05")?.options.timeout, 0.05)
        XCTAssertEqual(parsed("udp:h?timeout=3600")?.options.timeout, 3600)
    }

    func testLimits() {
        XCTAssertEqual(parsed("udp:h?retries=0")?.options.retries, 0)
        XCTAssertEqual(parsed("udp:h?retries=10")?.options.retries, 10)
        XCTAssertEqual(parsed("udp:h?mtu=128")?.options.mtu, 128)
        XCTAssertEqual(parsed("serial:auto?mtu=23")?.options.mtu, 23)
        XCTAssertEqual(parsed("ble:name=x?mtu=23")?.options.mtu, 23)
        XCTAssertEqual(parsed("udp:h?mtu=65535")?.options.mtu, 65535)
        XCTAssertEqual(parsed("serial:auto?line=16")?.options.lineLength, 16)
        XCTAssertEqual(parsed("serial:auto?line=8192")?.options.lineLength, 8192)
    }

    func testSerialOptions() {
        let options = parsed("serial:/dev/ttyACM0?baud=115200&line=128&flow=rtscts&timeout=1&retries=0&mtu=512")?.options
        XCTAssertEqual(options?.baud, 115_200)
        XCTAssertEqual(options?.lineLength, 128)
        XCTAssertEqual(options?.hardwareFlowControl, true)
        XCTAssertEqual(options?.timeout, 1)
        XCTAssertEqual(options?.retries, 0)
        XCTAssertEqual(options?.mtu, 512)
        XCTAssertEqual(parsed("serial:auto?flow=none")?.options.hardwareFlowControl, false)
        XCTAssertEqual(parsed("serial:auto?flow=RTSCTS")?.options.hardwareFlowControl, true)
    }

    func testBLEOptions() {
        let options = parsed("ble:name=Zephyr?adapter=hci1&pair=1&mtu=498")?.options
        XCTAssertEqual(options?.adapter, "hci1")
        XCTAssertEqual(options?.pair, true)
        XCTAssertEqual(options?.mtu, 498)
        XCTAssertEqual(parsed("ble:name=Zephyr?pair=0")?.options.pair, false)
        XCTAssertEqual(parsed("ble:name=Zephyr?pair=yes")?.options.pair, true)
        XCTAssertEqual(parsed("ble:name=Zephyr?pair=false")?.options.pair, false)
    }

    func testOptionNamesAreCaseInsensitive() {
        XCTAssertEqual(parsed("udp:h?Timeout=2&RETRIES=1")?.options.retries, 1)
    }

    func testEmptyOptionListsAndSeparators() {
        XCTAssertEqual(parsed("udp:h?")?.options, ConnectionOptions())
        XCTAssertEqual(parsed("udp:h?&timeout=1&&")?.options.timeout, 1)
    }

    // MARK: Malformed options

    func testOptionWithoutEquals() {
        assertRejected("udp:h?timeout", part: "timeout", problem: "an option must be NAME=VALUE")
        assertRejected("udp:h?timeout=1&retries", part: "retries", problem: "NAME=VALUE")
    }

    func testUnknownOption() {
        assertRejected("udp:h?speed=9", part: "speed", problem: "unknown option for udp")
        let error = rejection("udp:h?speed=9")
        XCTAssertTrue(error?.problem.contains("udp takes timeout, retries, mtu") == true, error?.problem ?? "")
    }

    func testOptionOfAnotherTransport() {
        assertRejected("udp:h?baud=115200", part: "baud", problem: "unknown option for udp")
        assertRejected("udp:h?pair=1", part: "pair", problem: "unknown option for udp")
        assertRejected("ble:name=x?flow=none", part: "flow", problem: "unknown option for ble")
        assertRejected("serial:auto?adapter=hci0", part: "adapter", problem: "unknown option for serial")
        XCTAssertFalse(rejection("udp:h?baud=115200")?.problem.contains("baud,") ?? true, "udp does not list baud")
    }

    func testDuplicateOption() {
        assertRejected("udp:h?timeout=1&timeout=2", part: "timeout=2", problem: "the option is given twice")
        assertRejected("udp:h?retries=1&RETRIES=1", part: "RETRIES=1", problem: "given twice")
    }

    func testBadTimeouts() {
        for value in ["0", "-1", "3601", "abc", "", "inf", "nan"] {
            assertRejected("udp:h?timeout=\(value)", part: "timeout=\(value)", problem: "expected seconds greater than 0 and at most 3600")
        }
    }

    func testBadRetries() {
        for value in ["-1", "11", "1.5", "two", ""] {
            assertRejected("udp:h?retries=\(value)", part: "retries=\(value)", problem: "expected a whole number from 0 to 10")
        }
    }

    func testBadMTUs() {
        for value in ["22", "65536", "0", "big"] {
            assertRejected("serial:auto?mtu=\(value)", part: "mtu=\(value)", problem: "expected bytes from 23 to 65535")
        }
        // UDP needs 128 bytes (the UDP transport refuses less): refused here, not later as a transport failure.
        for value in ["23", "127", "65536"] {
            assertRejected("udp:h?mtu=\(value)", part: "mtu=\(value)", problem: "expected bytes from 128 to 65535")
        }
    }

    func testBadBaudRates() {
        for value in ["49", "20000001", "fast", "115200.5"] {
            assertRejected("serial:auto?baud=\(value)", part: "baud=\(value)", problem: "expected a baud rate")
        }
    }

    func testBadLineLengths() {
        for value in ["15", "8193", "long"] {
            assertRejected("serial:auto?line=\(value)", part: "line=\(value)", problem: "expected a line length from 16 to 8192")
        }
    }

    func testBadFlowControl() {
        for value in ["xonxoff", "1", ""] {
            assertRejected("serial:auto?flow=\(value)", part: "flow=\(value)", problem: "expected rtscts or none")
        }
    }

    func testBadAdapters() {
        for value in ["hci", "eth0", "hcix", "hci-1", "hci+1", "HCI0", ""] {
            assertRejected("ble:name=x?adapter=\(value)", part: "adapter=\(value)", problem: "expected an adapter name such as hci0")
        }
    }

    func testBadPair() {
        for value in ["2", "maybe", ""] {
            assertRejected("ble:name=x?pair=\(value)", part: "pair=\(value)", problem: "expected 0 or 1")
        }
    }

    func testABadValueHintsAtTheOption() {
        XCTAssertEqual(rejection("serial:auto?mtu=1")?.hint, "mtu: bytes, 23–65535")
        XCTAssertEqual(rejection("udp:h?mtu=1")?.hint, "mtu: bytes, 128–65535")
        XCTAssertEqual(rejection("serial:auto?flow=x")?.hint, "flow: rtscts or none")
    }
}
