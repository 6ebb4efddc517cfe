import CBOR
import XCTest
@testable import SMP

final class SMPResponseFieldsTests: XCTestCase {
    private let payload: CBORMap = [
        "name": "zephyr", "count": 42, "negative": -7, "huge": .unsigned(UInt64.max), "flag": true,
        "inner": ["x": 1], "bytes": .bytes([0xAB]),
    ]

    private func message<T>(_ body: (CBORMap) throws(SMPResponseError) -> T) -> String? {
        thrownError { () throws(SMPResponseError) in try body(payload) }?.detail
    }

    func testPresentFieldsOfTheRightType() throws {
        XCTAssertEqual(try payload.text("name"), "zephyr")
        XCTAssertEqual(try payload.integer("count"), 42)
        XCTAssertEqual(try payload.integer("negative"), -7)
        XCTAssertEqual(try payload.unsigned("count"), 42)
        XCTAssertEqual(try payload.unsigned("huge"), UInt64.max)
        XCTAssertEqual(try payload.map("inner"), ["x": 1])
        XCTAssertEqual(try payload.field("bytes"), .bytes([0xAB]))
        XCTAssertEqual(try payload.optionalText("name"), "zephyr")
        XCTAssertEqual(try payload.optionalInteger("negative"), -7)
        XCTAssertEqual(try payload.optionalBool("flag"), true)
    }

    func testMissingFieldsNameTheField() {
        XCTAssertEqual(message { p throws(SMPResponseError) in try p.field("absent") }, "the response has no \"absent\" field")
        XCTAssertEqual(message { p throws(SMPResponseError) in try p.text("output") }, "the response has no \"output\" field")
        XCTAssertEqual(message { p throws(SMPResponseError) in try p.integer("mode") }, "the response has no \"mode\" field")
        XCTAssertEqual(message { p throws(SMPResponseError) in try p.unsigned("buf_size") }, "the response has no \"buf_size\" field")
        XCTAssertEqual(message { p throws(SMPResponseError) in try p.map("tasks") }, "the response has no \"tasks\" field")
    }

    func testOptionalFieldsMayBeAbsent() throws {
        XCTAssertNil(try payload.optionalText("absent"))
        XCTAssertNil(try payload.optionalInteger("absent"))
        XCTAssertNil(try payload.optionalBool("absent"))
    }

    func testWrongTypesNameTheFieldTheExpectedAndTheFoundType() {
        XCTAssertEqual(message { p throws(SMPResponseError) in try p.text("count") },
                       "field \"count\" should be a text string but is integer 42")
        XCTAssertEqual(message { p throws(SMPResponseError) in try p.integer("name") },
                       "field \"name\" should be an integer but is text string \"zephyr\"")
        XCTAssertEqual(message { p throws(SMPResponseError) in try p.map("flag") },
                       "field \"flag\" should be a map but is boolean true")
        XCTAssertEqual(message { p throws(SMPResponseError) in try p.unsigned("negative") },
                       "field \"negative\" should be a non-negative integer but is integer -7")
        for (detail, field) in [
            (message { p throws(SMPResponseError) in try p.integer("huge") }, "huge"),
            (message { p throws(SMPResponseError) in try p.optionalText("count") }, "count"),
            (message { p throws(SMPResponseError) in try p.optionalInteger("bytes") }, "bytes"),
            (message { p throws(SMPResponseError) in try p.optionalBool("count") }, "count"),
        ] {
            XCTAssertTrue(detail?.contains("field \"\(field)\" should be") == true, detail ?? "no error")
        }
        XCTAssertTrue(message { p throws(SMPResponseError) in try p.optionalBool("count") }?.contains("a boolean") == true)
        XCTAssertTrue(message { p throws(SMPResponseError) in try p.optionalInteger("bytes") }?.contains("byte string") == true)
    }

    func testLookupUsesTheFirstOfDuplicateKeys() throws {
        let duplicated = CBORMap([.init(key: "r", value: "first"), .init(key: "r", value: "second")])
        XCTAssertEqual(try duplicated.text("r"), "first")
    }

    func testErrorDescriptionIsTheDetail() {
        XCTAssertEqual(SMPResponseError("oops").description, "oops")
    }
}
