import CBOR
import XCTest
@testable import SMP

final class OSDateTimeTests: XCTestCase {
    func testReadRequest() {
        assertRequest(OSDateTimeRead().request, command: 4, operation: .read, payload: "a0", retrySafe: true)
    }

    func testReadResponseWithUnpaddedMilliseconds() throws {
        let value = try OSDateTimeRead().decodeResponse(["datetime": "2024-05-01T12:30:45.5"])
        XCTAssertEqual(value, SMPDateTime(year: 2024, month: 5, day: 1, hour: 12, minute: 30, second: 45, millisecond: 5))
        XCTAssertEqual(try OSDateTimeRead().decodeResponse(["datetime": "2024-05-01T12:30:45.123"]).millisecond, 123)
    }

    func testReadResponseWithoutMilliseconds() throws {
        let value = try OSDateTimeRead().decodeResponse(["datetime": "1970-01-01T00:00:00"])
        XCTAssertNil(value.millisecond)
        XCTAssertNil(value.utcOffsetMinutes)
        XCTAssertEqual(value.year, 1970)
    }

    func testMalformedReadResponses() {
        XCTAssertEqual(decodeFailure(OSDateTimeRead(), [:]), "the response has no \"datetime\" field")
        XCTAssertEqual(decodeFailure(OSDateTimeRead(), ["datetime": 0]),
                       "field \"datetime\" should be a text string but is integer 0")
        XCTAssertEqual(decodeFailure(OSDateTimeRead(), ["datetime": "yesterday"]),
                       "field \"datetime\" is not a date-time: \"yesterday\"")
        XCTAssertEqual(decodeFailure(OSDateTimeRead(), ["datetime": "2024-05-01T12:30:45.1234"]),
                       "field \"datetime\" is not a date-time: \"2024-05-01T12:30:45.1234\"")
    }

    func testWriteRequestIsNotRetrySafe() {
        let value = SMPDateTime(year: 2024, month: 5, day: 1, hour: 12, minute: 30, second: 45)
        // {"datetime": "2024-05-01T12:30:45"}
        assertRequest(OSDateTimeWrite(value).request, command: 4, operation: .write,
                      payload: "a1 68 64 61 74 65 74 69 6d 65 73 32 30 32 34 2d 30 35 2d 30 31 54 31 32 3a 33 30 3a 34 35",
                      retrySafe: false)
    }

    func testWriteSendsUTCWithoutAZone() throws {
        let local = try XCTUnwrap(SMPDateTime(iso8601: "2024-03-01T00:30:00+01:00"))
        XCTAssertEqual(OSDateTimeWrite(local).request.payload, ["datetime": "2024-02-29T23:30:00"])
        let utc = try XCTUnwrap(SMPDateTime(iso8601: "2024-03-01T00:30:00Z"))
        XCTAssertEqual(OSDateTimeWrite(utc).request.payload, ["datetime": "2024-03-01T00:30:00"])
    }

    func testWriteZeroPadsMilliseconds() throws {
        let value = try XCTUnwrap(SMPDateTime(iso8601: "2024-05-01T12:30:45.005"))
        XCTAssertEqual(OSDateTimeWrite(value).request.payload, ["datetime": "2024-05-01T12:30:45.005"])
        let text = try XCTUnwrap(OSDateTimeWrite(value).request.payload["datetime"]?.stringValue)
        XCTAssertTrue((19...25).contains(text.count), "Zephyr accepts 19–25 characters")
    }

    func testTheWriteAnswerIsOnlyAnAcknowledgement() async {
        let value = SMPDateTime(year: 2024, month: 5, day: 1, hour: 12, minute: 30, second: 45)
        await assertAcknowledgedOnly(OSDateTimeWrite(value))
    }
}
