import SMP
import XCTest

/// Setting values as text: strings, hex, little-endian integers with range checks.
final class SettingsValueTypeTests: XCTestCase {
    func testEncodes() throws {
        XCTAssertEqual(try SettingsValueType.string.encode("hé"), [0x68, 0xC3, 0xA9])
        XCTAssertEqual(try SettingsValueType.hex.encode("01ab"), [0x01, 0xAB])
        XCTAssertEqual(try SettingsValueType.hex.encode("01:ab:FF"), [0x01, 0xAB, 0xFF])
        XCTAssertEqual(try SettingsValueType.u16.encode("258"), [0x02, 0x01])
        XCTAssertEqual(try SettingsValueType.u32.encode("4294967295"), [0xFF, 0xFF, 0xFF, 0xFF])
        XCTAssertEqual(try SettingsValueType.i8.encode("-1"), [0xFF])
        XCTAssertEqual(try SettingsValueType.i16.encode("-32768"), [0x00, 0x80])
        XCTAssertEqual(try SettingsValueType.u64.encode("18446744073709551615"), [UInt8](repeating: 0xFF, count: 8))
        XCTAssertEqual(try SettingsValueType.i64.encode("-9223372036854775808"), [0, 0, 0, 0, 0, 0, 0, 0x80])
    }

    func testRejectsOutOfRangeAndMalformed() {
        XCTAssertThrowsError(try SettingsValueType.u8.encode("256")) { error in
            XCTAssertEqual(error as? SettingsValueError, .outOfRange("256", .u8, "0…255"))
            XCTAssertTrue("\(error)".contains("does not fit in u8 (0…255)"), "\(error)")
        }
        XCTAssertThrowsError(try SettingsValueType.u8.encode("-1")) { error in
            XCTAssertEqual(error as? SettingsValueError, .outOfRange("-1", .u8, "0…255"))
        }
        XCTAssertThrowsError(try SettingsValueType.i8.encode("128")) { error in
            XCTAssertEqual(error as? SettingsValueError, .outOfRange("128", .i8, "-128…127"))
        }
        XCTAssertThrowsError(try SettingsValueType.u32.encode("12x")) { error in
            XCTAssertEqual(error as? SettingsValueError, .invalidInteger("12x", .u32))
        }
        XCTAssertThrowsError(try SettingsValueType.hex.encode("1g")) { error in
            XCTAssertEqual(error as? SettingsValueError, .invalidHex("1g"))
        }
        XCTAssertThrowsError(try SettingsValueType.hex.encode("abc"), "an odd number of digits") { error in
            XCTAssertEqual(error as? SettingsValueError, .invalidHex("abc"))
        }
    }

    func testDecodesAndDisplays() {
        XCTAssertEqual(SettingsValueType.u16.decode([0x02, 0x01]), "258")
        XCTAssertEqual(SettingsValueType.i16.decode([0x00, 0x80]), "-32768")
        XCTAssertEqual(SettingsValueType.i32.decode([0xFE, 0xFF, 0xFF, 0xFF]), "-2")
        XCTAssertNil(SettingsValueType.u32.decode([1, 2]), "the width must match")
        XCTAssertNil(SettingsValueType.string.decode([0xFF]))
        XCTAssertEqual(SettingsValueType.display(Array("Zephyr".utf8)).text, "Zephyr")
        XCTAssertEqual(SettingsValueType.display([1, 0, 0, 0]).type, .hex)
        XCTAssertEqual(SettingsValueType.display([1, 0, 0, 0]).text, "01000000")
        XCTAssertEqual(SettingsValueType.display([]).type, .hex, "an empty value shows as (empty) hex")
    }
}
