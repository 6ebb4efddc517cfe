import XCTest
@testable import SMP

final class HexTests: XCTestCase {
    func testStringIsLowerCaseAndPadded() {
        XCTAssertEqual(Hex.string([0x00, 0x0A, 0xFF, 0x42]), "000aff42")
        XCTAssertEqual(Hex.string([UInt8]()), "")
    }

    func testStringWithSeparator() {
        XCTAssertEqual(Hex.string([0x0A, 0x00, 0x42], separator: " "), "0a 00 42")
        XCTAssertEqual(Hex.string([0xDE, 0xAD], separator: ":"), "de:ad")
        XCTAssertEqual(Hex.string([0x01], separator: " "), "01")
        XCTAssertEqual(Hex.string([0x0A, 0x00, 0x42][1...], separator: "-"), "00-42")
    }

    func testBytesAcceptsCaseWhiteSpaceColonsAndPrefix() {
        XCTAssertEqual(Hex.bytes("0a000042"), [0x0A, 0x00, 0x00, 0x42])
        XCTAssertEqual(Hex.bytes("DEADbeef"), [0xDE, 0xAD, 0xBE, 0xEF])
        XCTAssertEqual(Hex.bytes("0a 00\t00\n42\r\n"), [0x0A, 0x00, 0x00, 0x42])
        XCTAssertEqual(Hex.bytes("de:ad:be:ef"), [0xDE, 0xAD, 0xBE, 0xEF])
        XCTAssertEqual(Hex.bytes("0x0a00"), [0x0A, 0x00])
        XCTAssertEqual(Hex.bytes("0X0A00"), [0x0A, 0x00])
        XCTAssertEqual(Hex.bytes(""), [])
        XCTAssertEqual(Hex.bytes("0x"), [])
    }

    func testBytesRejectsMalformedText() {
        XCTAssertNil(Hex.bytes("abc"))
        XCTAssertNil(Hex.bytes("0g"))
        XCTAssertNil(Hex.bytes("zz"))
        XCTAssertNil(Hex.bytes("0a-00"))
        XCTAssertNil(Hex.bytes("0x0"))
        XCTAssertNil(Hex.bytes("éé"))
    }

    func testRoundTripOfEveryByte() {
        let all = (0...255).map(UInt8.init)
        XCTAssertEqual(Hex.bytes(Hex.string(all)), all)
        XCTAssertEqual(Hex.bytes(Hex.string(all, separator: " ")), all)
    }
}
