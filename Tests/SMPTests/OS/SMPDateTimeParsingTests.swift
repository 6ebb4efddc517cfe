import XCTest
@testable import SMP

final class SMPDateTimeParsingTests: XCTestCase {
    private func iso(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> SMPDateTime {
        try XCTUnwrap(SMPDateTime(iso8601: text), "\(text) should parse", file: file, line: line)
    }

    func testWithoutFractionOrZone() throws {
        let value = try iso("2024-05-01T12:30:45")
        XCTAssertEqual(value, SMPDateTime(year: 2024, month: 5, day: 1, hour: 12, minute: 30, second: 45))
        XCTAssertNil(value.millisecond)
        XCTAssertNil(value.utcOffsetMinutes)
    }

    func testSeparators() throws {
        XCTAssertEqual(try iso("2024-05-01 12:30:45"), try iso("2024-05-01T12:30:45"))
        XCTAssertEqual(try iso("2024-05-01t12:30:45"), try iso("2024-05-01T12:30:45"))
        XCTAssertEqual(try iso("  2024-05-01T12:30:45Z  ").utcOffsetMinutes, 0)
        XCTAssertNil(SMPDateTime(iso8601: "2024-05-01X12:30:45"))
        XCTAssertNil(SMPDateTime(iso8601: "2024/05/01T12:30:45"))
    }

    func testFractionIsADecimalFraction() throws {
        XCTAssertEqual(try iso("2024-05-01T12:30:45.5").millisecond, 500)
        XCTAssertEqual(try iso("2024-05-01T12:30:45.05").millisecond, 50)
        XCTAssertEqual(try iso("2024-05-01T12:30:45.005").millisecond, 5)
        XCTAssertEqual(try iso("2024-05-01T12:30:45.123456").millisecond, 123)
        XCTAssertEqual(try iso("2024-05-01T12:30:45,25").millisecond, 250)
        XCTAssertEqual(try iso("2024-05-01T12:30:45.000").millisecond, 0)
        XCTAssertNil(SMPDateTime(iso8601: "2024-05-01T12:30:45."))
        XCTAssertNil(SMPDateTime(iso8601: "2024-05-01T12:30:45.x"))
    }

    func testZones() throws {
        XCTAssertEqual(try iso("2024-05-01T12:30:45Z").utcOffsetMinutes, 0)
        XCTAssertEqual(try iso("2024-05-01T12:30:45z").utcOffsetMinutes, 0)
        XCTAssertEqual(try iso("2024-05-01T12:30:45+01:00").utcOffsetMinutes, 60)
        XCTAssertEqual(try iso("2024-05-01T12:30:45-0530").utcOffsetMinutes, -330)
        XCTAssertEqual(try iso("2024-05-01T12:30:45+05").utcOffsetMinutes, 300)
        XCTAssertEqual(try iso("2024-05-01T12:30:45-00:30").utcOffsetMinutes, -30)
        XCTAssertEqual(try iso("2024-05-01T12:30:45+23:59").utcOffsetMinutes, 23 * 60 + 59)
        let both = try iso("2024-05-01T12:30:45.250+02:00")
        XCTAssertEqual(both.millisecond, 250)
        XCTAssertEqual(both.utcOffsetMinutes, 120)
    }

    func testMalformedZones() {
        for text in [
            "2024-05-01T12:30:45+1", "2024-05-01T12:30:45+01:0", "2024-05-01T12:30:45+24:00",
            "2024-05-01T12:30:45+01:60", "2024-05-01T12:30:45 Z", "2024-05-01T12:30:45UTC",
            "2024-05-01T12:30:45Zjunk", "2024-05-01T12:30:45+01:00:00", "2024-05-01T12:30:45+",
        ] {
            XCTAssertNil(SMPDateTime(iso8601: text), text)
        }
    }

    func testMalformedDatesAndTimes() {
        for text in [
            "", "2024", "2024-5-01T12:30:45", "2024-05-1T12:30:45", "24-05-01T12:30:45", "2024-05-01T12:30",
            "2024-05-01T1:30:45", "2024-05-01", "2024-05-01T12:30:4a", "+2024-05-01T12:30:45",
        ] {
            XCTAssertNil(SMPDateTime(iso8601: text), text)
        }
    }

    func testOutOfRangeValuesAreRejected() {
        for text in [
            "2024-13-01T00:00:00", "2024-00-10T00:00:00", "2024-04-31T00:00:00", "2024-01-32T00:00:00",
            "2024-01-00T00:00:00", "2023-02-29T00:00:00", "1900-02-29T00:00:00", "2024-01-01T24:00:00",
            "2024-01-01T23:60:00", "2024-01-01T23:59:60", "1899-12-31T23:59:59",
        ] {
            XCTAssertNil(SMPDateTime(iso8601: text), text)
        }
        XCTAssertNotNil(SMPDateTime(iso8601: "2024-02-29T00:00:00"))
        XCTAssertNotNil(SMPDateTime(iso8601: "2000-02-29T00:00:00"))
        XCTAssertNotNil(SMPDateTime(iso8601: "1900-01-01T00:00:00"))
    }

    func testDeviceStringMillisecondsAreNotZeroPadded() throws {
        XCTAssertEqual(SMPDateTime(deviceString: "2024-05-01T12:30:45.5")?.millisecond, 5)
        XCTAssertEqual(SMPDateTime(deviceString: "2024-05-01T12:30:45.50")?.millisecond, 50)
        XCTAssertEqual(SMPDateTime(deviceString: "2024-05-01T12:30:45.500")?.millisecond, 500)
        XCTAssertEqual(SMPDateTime(deviceString: "2024-05-01T12:30:45.005")?.millisecond, 5)
        XCTAssertEqual(SMPDateTime(deviceString: "2024-05-01T12:30:45.999")?.millisecond, 999)
        XCTAssertNil(SMPDateTime(deviceString: "2024-05-01T12:30:45.1234"))
        let plain = try XCTUnwrap(SMPDateTime(deviceString: "2024-05-01T12:30:45"))
        XCTAssertEqual(plain, SMPDateTime(year: 2024, month: 5, day: 1, hour: 12, minute: 30, second: 45))
        XCTAssertNil(SMPDateTime(deviceString: "not a date"))
        XCTAssertNil(SMPDateTime(deviceString: "2024-05-01T12:30"))
    }

    func testDeviceStringOutput() {
        XCTAssertEqual(SMPDateTime(year: 987, month: 1, day: 2, hour: 3, minute: 4, second: 5).deviceString,
                       "0987-01-02T03:04:05")
        XCTAssertEqual(SMPDateTime(year: 2024, month: 12, day: 31, hour: 23, minute: 59, second: 59, millisecond: 5).deviceString,
                       "2024-12-31T23:59:59.005")
        XCTAssertEqual(SMPDateTime(year: 2024, month: 1, day: 1, hour: 0, minute: 0, second: 0, millisecond: 0).deviceString,
                       "2024-01-01T00:00:00.000")
        // What a device prints unpadded reads back as the same instant after a round trip.
        let sent = SMPDateTime(year: 2024, month: 1, day: 1, hour: 0, minute: 0, second: 0, millisecond: 5)
        XCTAssertEqual(SMPDateTime(deviceString: sent.deviceString), sent)
    }

    func testDescriptionShowsTheZone() {
        let base = SMPDateTime(year: 2024, month: 5, day: 1, hour: 12, minute: 30, second: 45)
        XCTAssertEqual(base.description, "2024-05-01T12:30:45")
        var zoned = base
        zoned.utcOffsetMinutes = 0
        XCTAssertEqual(zoned.description, "2024-05-01T12:30:45Z")
        zoned.utcOffsetMinutes = 330
        XCTAssertEqual(zoned.description, "2024-05-01T12:30:45+05:30")
        zoned.utcOffsetMinutes = -60
        XCTAssertEqual(zoned.description, "2024-05-01T12:30:45-01:00")
        zoned.utcOffsetMinutes = -30
        XCTAssertEqual(zoned.description, "2024-05-01T12:30:45-00:30")
    }
}
