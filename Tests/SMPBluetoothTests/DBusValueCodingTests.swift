@testable import SMPBluetooth
import XCTest

/// Encoding `DBusValue`s into a libdbus message and decoding them back (no bus needed).
final class DBusValueCodingTests: XCTestCase {
    private func roundTrip(_ values: [DBusValue]) throws -> [DBusValue] {
        let message = try DBusMessage.methodCall(destination: "org.example", path: "/org/example", interface: "org.example.I", member: "M", arguments: values)
        return try message.arguments()
    }

    func testBasicTypesRoundTrip() throws {
        let values: [DBusValue] = [
            .byte(0xAB), .bool(true), .bool(false), .int16(-2), .uint16(65_535), .int32(-70_000), .uint32(4_000_000_000),
            .int64(-1 << 40), .uint64(1 << 63), .double(2.5), .string("grüße"), .objectPath("/org/bluez/hci0"), .signature("a{sv}"),
        ]
        XCTAssertEqual(try roundTrip(values), values)
    }

    func testContainersRoundTrip() throws {
        let values: [DBusValue] = [
            .bytes([0, 1, 2, 255]), .bytes([]),
            .strings(["a", "b"]), .array([], elementSignature: "o"),
            .properties([("type", .string("command")), ("UUIDs", .strings(["8d53dc1d-1db7-4cd3-868b-8a527460aa84"])), ("RSSI", .int16(-60))]),
            .dict([], keySignature: "o", valueSignature: "a{sa{sv}}"),
            .struct([.string("x"), .uint16(7), .variant(.bytes([9]))]),
            .array([.array([.int32(1)], elementSignature: "i")], elementSignature: "ai"),
        ]
        XCTAssertEqual(try roundTrip(values), values)
        XCTAssertEqual(values[4].signature, "a{sv}")
        XCTAssertEqual(values[6].signature, "(sqv)")
    }

    func testFileDescriptorsAreDuplicated() throws {
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        defer { ends.forEach { close($0) } }
        let decoded = try roundTrip([.fd(ends[0])])
        guard case .fd(let copy) = decoded.first else { return XCTFail("no descriptor decoded: \(decoded)") }
        XCTAssertNotEqual(copy, ends[0], "the decoded descriptor is a new one the receiver owns")
        XCTAssertEqual(close(copy), 0)
    }

    func testInvalidValuesAreErrorsNotAborts() {
        func assertInvalid(_ values: [DBusValue], _ message: String, line: UInt = #line) {
            XCTAssertThrowsError(try roundTrip(values), line: line) { error in
                XCTAssertEqual(error as? DBusError, DBusError(name: DBusError.invalidArgs, message: message), line: line)
            }
        }
        assertInvalid([.objectPath("not/a/path")], "\"not/a/path\" is not a valid D-Bus object path")
        assertInvalid([.string("nul\u{0}inside")], "\"nul\u{0}inside\" is not a valid D-Bus string")
        assertInvalid([.array([.int32(1)], elementSignature: "s")], "an array of s holds a i")
        assertInvalid([.struct([])], "a D-Bus structure needs at least one field")
        XCTAssertThrowsError(try DBusMessage.methodCall(destination: "org.example", path: "//", interface: "org.example.I", member: "M", arguments: [])) { error in
            XCTAssertEqual(error as? DBusError, DBusError(name: DBusError.invalidArgs, message: "\"//\" is not a valid D-Bus object path"))
        }
    }

    func testAccessors() {
        let properties = DBusValue.properties([("Name", .string("Zephyr")), ("RSSI", .int16(-42)), ("Connected", .bool(true))])
        let dictionary = properties.dictionaryValue
        XCTAssertEqual(dictionary?["Name"]?.stringValue, "Zephyr")
        XCTAssertEqual(dictionary?["RSSI"]?.integerValue, -42)
        XCTAssertEqual(dictionary?["Connected"]?.boolValue, true)
        XCTAssertNil(DBusValue.uint64(.max).integerValue)
    }

    func testMatchRule() {
        let rule = DBusMatchRule(sender: "org.bluez", interface: "org.freedesktop.DBus.Properties", pathNamespace: "/org/bluez")
        XCTAssertEqual(rule.text, "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',path_namespace='/org/bluez'")
        let signal = DBusSignal(sender: ":1.2", path: "/org/bluez/hci0", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", arguments: [])
        XCTAssertTrue(rule.matches(signal))
        var elsewhere = signal
        elsewhere.path = "/org/bluezz"
        XCTAssertFalse(rule.matches(elsewhere))
    }
}
