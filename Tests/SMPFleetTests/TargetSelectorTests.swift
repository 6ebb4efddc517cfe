import SMPFleet
import SMPKit
import XCTest

/// Selector forms: which text names many devices, UDP expansion, options, and errors.
final class TargetSelectorTests: XCTestCase {
    private func targets(_ text: String, label: String? = nil) async throws -> [DeviceTarget] {
        try await TargetSelector(parsing: text).resolve(label: label)
    }

    private func error(_ text: String) -> TargetSelectionError? {
        do {
            _ = try TargetSelector(parsing: text)
            return nil
        } catch {
            return error
        }
    }

    func testAPlainConnectionStringIsOneTargetAndMayNotMatchMany() async throws {
        for text in ["udp:192.0.2.1", "serial:/dev/ttyACM0", "serial:usb=2fe3:0100", "ble:name=Zephyr", "ble:AA:BB:CC:DD:EE:FF", "udp:my-host.local:1338"] {
            XCTAssertFalse(try TargetSelector(parsing: text).mayMatchMany, text)
        }
        let one = try await targets("udp:192.0.2.1?timeout=2", label: "bay-01")
        XCTAssertEqual(one.map(\.name), ["bay-01"])
        XCTAssertEqual(one.first?.connection.description, "udp:192.0.2.1:1337?timeout=2")
        XCTAssertEqual(one.first?.identity.address, "192.0.2.1:1337")
        let path = try await targets("serial:/dev/ttyACM0")
        XCTAssertEqual(path.first?.identity.address, "/dev/ttyACM0")
    }

    func testSelectorFormsMayMatchMany() throws {
        for text in [
            "serial:*", "serial:vid=2fe3", "serial:vid=2fe3,pid=0100", "serial:serial=E661*", "serial:path=/dev/ttyACM*",
            "serial:ID_MODEL=Zephyr*", "serial:serial-number=E661*", "serial:/dev/ttyACM*", "udp:192.0.2.1,192.0.2.2",
            "udp:127.0.0.1:14000-14001", "udp:192.0.2.10-20", "ble:name=Zephyr-*", "ble:name=Zephyr-*?scan=2",
        ] {
            XCTAssertTrue(try TargetSelector(parsing: text).mayMatchMany, text)
        }
    }

    func testAConnectionStringErrorStaysWhatItIsToday() throws {
        for text in ["tcp:x", "udp:192.0.2.1:99999", "serial:ttyACM0", "ble:name=", "", "udp:192.0.2.1?baud=9600"] {
            var expected: ConnectionStringError?
            do { _ = try ConnectionString(parsing: text) } catch { expected = error }
            let connectionError = try XCTUnwrap(expected, text)
            let selectionError = try XCTUnwrap(error(text), text)
            XCTAssertEqual(selectionError.kind, .usage, text)
            XCTAssertEqual(selectionError.message, connectionError.description, text)
            XCTAssertEqual(selectionError.hint, "accepted forms:\n" + connectionError.hint, text)
        }
    }

    func testAPortRangeExpandsInOrderWithTheSelectorsOptions() async throws {
        let found = try await targets("udp:127.0.0.1:14000-14004?timeout=2&retries=1")
        XCTAssertEqual(found.map(\.connection.description), (14000...14004).map { "udp:127.0.0.1:\($0)?timeout=2&retries=1" })
        XCTAssertEqual(found.map(\.name), (14000...14004).map { "127.0.0.1:\($0)" })
        XCTAssertEqual(found.map(\.identity.address), (14000...14004).map { "127.0.0.1:\($0)" })
        let labelled = try await targets("udp:127.0.0.1:14000-14001", label: "sim")
        XCTAssertEqual(labelled.map(\.name), ["sim-1", "sim-2"])
    }

    func testLastOctetRangesHostListsAndBrackets() async throws {
        let octets = try await targets("udp:192.0.2.10-12")
        XCTAssertEqual(octets.map(\.connection.description), ["udp:192.0.2.10:1337", "udp:192.0.2.11:1337", "udp:192.0.2.12:1337"])
        let both = try await targets("udp:192.0.2.1-2:5000-5001")
        XCTAssertEqual(both.map(\.connection.description), ["udp:192.0.2.1:5000", "udp:192.0.2.1:5001", "udp:192.0.2.2:5000", "udp:192.0.2.2:5001"])
        let list = try await targets("udp:192.0.2.1,device.local:1338,[::1]:9")
        XCTAssertEqual(list.map(\.connection.description), ["udp:192.0.2.1:1337", "udp:device.local:1338", "udp:[::1]:9"])
        let bracketed = try await targets("udp:[127.0.0.1:14000,127.0.0.1:14001]")
        XCTAssertEqual(bracketed.map(\.connection.description), ["udp:127.0.0.1:14000", "udp:127.0.0.1:14001"])
        let ipv6 = try await targets("udp:[fe80::1]:1337")
        XCTAssertEqual(ipv6.count, 1, "a bracketed IPv6 address is no list")
    }

    func testBadUDPSelectorsAreUsageErrorsNamingThePart() throws {
        let tooMany = try XCTUnwrap(error("udp:10.0.0.0-255:1-17"))
        XCTAssertEqual(tooMany.kind, .usage)
        XCTAssertTrue(tooMany.message.contains("more than 4096"), tooMany.message)
        XCTAssertNotNil(try? TargetSelector(parsing: "udp:127.0.0.1:1-4096"), "4096 is allowed")
        XCTAssertNotNil(error("udp:127.0.0.1:1-4097"))
        let reversed = try XCTUnwrap(error("udp:127.0.0.1:14010-14000"))
        XCTAssertTrue(reversed.message.contains("14010-14000"), reversed.message)
        let octet = try XCTUnwrap(error("udp:192.0.2.10-300"))
        XCTAssertTrue(octet.message.contains("0–255"), octet.message)
        let badHost = try XCTUnwrap(error("udp:192.0.2.1,bad/host"))
        XCTAssertTrue(badHost.message.contains("bad/host") && badHost.message.contains("udp:192.0.2.1,bad/host"), badHost.message)
        let empty = try XCTUnwrap(error("udp:192.0.2.1,,192.0.2.2"))
        XCTAssertTrue(empty.message.contains("empty entry"), empty.message)
        let option = try XCTUnwrap(error("udp:192.0.2.1,192.0.2.2?baud=9600"))
        XCTAssertTrue(option.message.contains("baud=9600"), option.message)
    }

    func testBadSerialSelectorsAreUsageErrors() throws {
        let unknown = try XCTUnwrap(error("serial:vendor=2fe3"))
        XCTAssertEqual(unknown.kind, .usage)
        XCTAssertTrue(unknown.message.contains("unknown key \"vendor\""), unknown.message)
        XCTAssertTrue(unknown.hint?.contains("vid") == true)
        XCTAssertTrue(try XCTUnwrap(error("serial:vid=")).message.contains("no pattern"))
        XCTAssertTrue(try XCTUnwrap(error("serial:vid=2fe3,vid=1915")).message.contains("twice"))
        XCTAssertTrue(try XCTUnwrap(error("serial:vid=2fe3?baud=fast")).message.contains("baud=fast"))
        XCTAssertTrue(try XCTUnwrap(error("ble:name=Z*?scan=0")).message.contains("scan=0"))
    }
}
