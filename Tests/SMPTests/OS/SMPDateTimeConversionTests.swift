import XCTest
@testable import SMP

final class SMPDateTimeConversionTests: XCTestCase {
    private func utc(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        guard let value = SMPDateTime(iso8601: text) else {
            XCTFail("\(text) should parse", file: file, line: line)
            return nil
        }
        return value.inUTC.description
    }

    func testNoZoneIsLeftAlone() {
        XCTAssertEqual(utc("2024-05-01T12:30:45"), "2024-05-01T12:30:45")
        XCTAssertNil(SMPDateTime(iso8601: "2024-05-01T12:30:45")?.inUTC.utcOffsetMinutes)
        XCTAssertEqual(utc("2024-05-01T12:30:45Z"), "2024-05-01T12:30:45Z")
    }

    func testSimpleOffsets() {
        XCTAssertEqual(utc("2024-05-01T12:30:45+01:00"), "2024-05-01T11:30:45Z")
        XCTAssertEqual(utc("2024-05-01T12:30:45-0530"), "2024-05-01T18:00:45Z")
        XCTAssertEqual(utc("2024-05-01T12:30:45+05"), "2024-05-01T07:30:45Z")
    }

    func testSecondsAndMillisecondsAreKept() throws {
        let value = try XCTUnwrap(SMPDateTime(iso8601: "2024-05-01T12:30:45.678+02:00")?.inUTC)
        XCTAssertEqual(value.second, 45)
        XCTAssertEqual(value.millisecond, 678)
        XCTAssertEqual(value.deviceString, "2024-05-01T10:30:45.678")
    }

    func testDayBoundaries() {
        XCTAssertEqual(utc("2024-05-01T00:30:00+01:00"), "2024-04-30T23:30:00Z")
        XCTAssertEqual(utc("2024-05-01T23:30:00-01:00"), "2024-05-02T00:30:00Z")
    }

    func testMonthBoundaries() {
        XCTAssertEqual(utc("2024-05-01T00:00:00+00:01"), "2024-04-30T23:59:00Z")
        XCTAssertEqual(utc("2024-04-30T20:00:00-05:00"), "2024-05-01T01:00:00Z")
        XCTAssertEqual(utc("2023-03-01T00:30:00+01:00"), "2023-02-28T23:30:00Z")
    }

    func testYearBoundaries() {
        XCTAssertEqual(utc("2024-01-01T00:00:00+05"), "2023-12-31T19:00:00Z")
        XCTAssertEqual(utc("2023-12-31T23:30:00-05:30"), "2024-01-01T05:00:00Z")
    }

    func testLeapDays() {
        XCTAssertEqual(utc("2024-03-01T00:30:00+01:00"), "2024-02-29T23:30:00Z")
        XCTAssertEqual(utc("2024-02-29T23:30:00-01:00"), "2024-03-01T00:30:00Z")
        XCTAssertEqual(utc("2000-03-01T00:00:00+00:01"), "2000-02-29T23:59:00Z")
        XCTAssertEqual(utc("2100-03-01T01:00:00+02:00"), "2100-02-28T23:00:00Z")
        XCTAssertEqual(utc("1900-03-01T00:00:00+01:00"), "1900-02-28T23:00:00Z")
    }

    func testValidationRanges() {
        func problem(_ change: (inout SMPDateTime) -> Void) -> String? {
            var value = SMPDateTime(year: 2024, month: 2, day: 29, hour: 12, minute: 0, second: 0, millisecond: 0)
            change(&value)
            return value.validate()
        }
        XCTAssertNil(problem { _ in })
        XCTAssertNil(problem { $0.year = 1900; $0.day = 28 })
        XCTAssertNil(problem { $0.year = 11_899; $0.day = 28 })
        XCTAssertEqual(problem { $0.year = 1899 }, "year 1899 is out of range 1900–11899")
        XCTAssertEqual(problem { $0.year = 11_900 }, "year 11900 is out of range 1900–11899")
        XCTAssertEqual(problem { $0.month = 0 }, "month 0 is out of range 1–12")
        XCTAssertEqual(problem { $0.month = 13 }, "month 13 is out of range 1–12")
        XCTAssertEqual(problem { $0.day = 30 }, "day 30 is out of range 1–29")
        XCTAssertEqual(problem { $0.year = 2023 }, "day 29 is out of range 1–28")
        XCTAssertEqual(problem { $0.month = 4; $0.day = 31 }, "day 31 is out of range 1–30")
        XCTAssertEqual(problem { $0.day = 0 }, "day 0 is out of range 1–29")
        XCTAssertEqual(problem { $0.hour = 24 }, "hour 24 is out of range 0–23")
        XCTAssertEqual(problem { $0.minute = 60 }, "minute 60 is out of range 0–59")
        XCTAssertEqual(problem { $0.second = 60 }, "second 60 is out of range 0–59")
        XCTAssertEqual(problem { $0.second = -1 }, "second -1 is out of range 0–59")
        XCTAssertEqual(problem { $0.millisecond = 1000 }, "milliseconds 1000 out of range 0–999")
        XCTAssertNil(problem { $0.millisecond = nil })
    }

    func testSecondsSince1970() {
        func text(_ seconds: Double) -> String { SMPDateTime(secondsSince1970: seconds).description }
        XCTAssertEqual(text(0), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(text(951_782_400), "2000-02-29T00:00:00.000Z")
        XCTAssertEqual(text(1_709_251_199.5), "2024-02-29T23:59:59.500Z")
        XCTAssertEqual(text(2_147_483_647), "2038-01-19T03:14:07.000Z")
        XCTAssertEqual(text(4_107_542_400), "2100-03-01T00:00:00.000Z")
        XCTAssertEqual(text(-1), "1969-12-31T23:59:59.000Z")
        XCTAssertEqual(text(-0.25), "1969-12-31T23:59:59.750Z")
        XCTAssertEqual(text(-2_208_988_800), "1900-01-01T00:00:00.000Z")
    }

    func testSecondsSince1970KeepsTheMillisecondsOfRealTimestamps() {
        // Binary fractions are not exact: .123 is stored as .12299990654, which must not become .122.
        XCTAssertEqual(SMPDateTime(secondsSince1970: 1_700_000_000.123).deviceString, "2023-11-14T22:13:20.123")
        XCTAssertEqual(SMPDateTime(secondsSince1970: 1.001).millisecond, 1)
        for milliseconds in 0..<1000 {
            let value = SMPDateTime(secondsSince1970: 1_700_000_000 + Double(milliseconds) / 1000)
            XCTAssertEqual(value.millisecond, milliseconds)
            XCTAssertEqual(value.second, 20)
        }
        // Rounding up to a whole second carries into the seconds.
        XCTAssertEqual(SMPDateTime(secondsSince1970: 59.9996).deviceString, "1970-01-01T00:01:00.000")
    }

    func testCivilDayAlgorithmsAreInverses() {
        XCTAssertEqual(CivilDays.days(year: 1970, month: 1, day: 1), 0)
        XCTAssertEqual(CivilDays.days(year: 2000, month: 3, day: 1), 11_017)
        var day = -1_000_000
        while day <= 4_000_000 {
            let (year, month, dayOfMonth) = CivilDays.date(days: day)
            XCTAssertTrue((1...12).contains(month) && (1...CivilDays.length(ofMonth: month, year: year)).contains(dayOfMonth))
            XCTAssertEqual(CivilDays.days(year: year, month: month, day: dayOfMonth), day)
            day += 997
        }
    }

    func testMonthLengths() {
        XCTAssertEqual((1...12).map { CivilDays.length(ofMonth: $0, year: 2023) }, [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
        XCTAssertEqual(CivilDays.length(ofMonth: 2, year: 2024), 29)
        XCTAssertEqual(CivilDays.length(ofMonth: 2, year: 2000), 29)
        XCTAssertEqual(CivilDays.length(ofMonth: 2, year: 1900), 28)
        XCTAssertEqual(CivilDays.length(ofMonth: 2, year: 2100), 28)
    }
}
