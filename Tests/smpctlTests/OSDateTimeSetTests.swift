import Foundation
import SMP
import SMPSimulator
import XCTest

/// `smpctl os datetime --set`: zones converted to UTC, `now`, and input rejected before sending.
final class OSDateTimeSetTests: XCTestCase {
    private func deviceClock(_ served: ServedDevice, file: StaticString = #filePath, line: UInt = #line) async throws -> SMPDateTime {
        let group = await served.osGroup
        return try XCTUnwrap(group?.clock.setTime, "the device clock is unset", file: file, line: line)
    }

    func testSetWithAZoneIsConvertedToUTC() async throws {
        let served = try await startDevice(VirtualDeviceConfiguration())
        let run = try await SMPCtl.run(["os", "datetime", "--set", "2024-05-01T12:30:00.250+02:00", "-c", served.endpoint])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "clock set to 2024-05-01T10:30:00.250\n")
        let clock = try await deviceClock(served)
        XCTAssertEqual(clock, SMPDateTime(year: 2024, month: 5, day: 1, hour: 10, minute: 30, second: 0, millisecond: 250))
    }

    func testSetWithAZoneCrossingMidnight() async throws {
        let served = try await startDevice(VirtualDeviceConfiguration())
        let run = try await SMPCtl.run(["os", "datetime", "--set", "2024-03-01T01:15:00-05:30", "-c", served.endpoint, "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document.keys, ["schemaVersion", "set"])
        XCTAssertEqual(document["set"]?.string, "2024-03-01T06:45:00")
        let clock = try await deviceClock(served)
        XCTAssertEqual([clock.year, clock.month, clock.day, clock.hour, clock.minute, clock.second], [2024, 3, 1, 6, 45, 0])
    }

    func testSetInUTCWithZ() async throws {
        let served = try await startDevice(VirtualDeviceConfiguration())
        let run = try await SMPCtl.run(["os", "datetime", "--set", "2023-12-31T23:59:59Z", "-c", served.endpoint, "--json"])
        assertSuccess(run)
        XCTAssertEqual(try run.jsonDocument()["set"]?.string, "2023-12-31T23:59:59")
    }

    func testSetWithoutAZoneIsSentAsGiven() async throws {
        let served = try await startDevice(VirtualDeviceConfiguration(), uptime: { .zero })
        let human = try await SMPCtl.run(["os", "datetime", "--set", "2024-05-01T12:30:00", "-c", served.endpoint])
        assertSuccess(human)
        XCTAssertEqual(human.stdout, "clock set to 2024-05-01T12:30:00\n")
        let clock = try await deviceClock(served)
        XCTAssertEqual([clock.year, clock.month, clock.day, clock.hour, clock.minute, clock.second], [2024, 5, 1, 12, 30, 0])
        // Reading it back gives the time that was set (the device's uptime stands still).
        let read = try await SMPCtl.run(["os", "datetime", "-c", served.endpoint, "--json"])
        assertSuccess(read)
        XCTAssertEqual(try read.jsonDocument()["datetime"]?.string, "2024-05-01T12:30:00.000", read.description)
    }

    func testSetNowSetsTheCurrentUTCTime() async throws {
        let served = try await startDevice(VirtualDeviceConfiguration())
        let before = Date().timeIntervalSince1970
        let run = try await SMPCtl.run(["os", "datetime", "--set", "now", "-c", served.endpoint, "--json"])
        let after = Date().timeIntervalSince1970
        assertSuccess(run)
        let sent = try XCTUnwrap(try run.jsonDocument()["set"]?.string)
        let clock = try await deviceClock(served)
        XCTAssertEqual(clock.deviceString, sent, "the document reports what was sent")
        let seconds = try XCTUnwrap(Self.secondsSince1970(clock))
        XCTAssertGreaterThanOrEqual(seconds, before.rounded(.down) - 0.001)
        XCTAssertLessThanOrEqual(seconds, after + 0.001)
        XCTAssertNotNil(clock.millisecond, "now carries milliseconds")
    }

    func testNowIsCaseInsensitive() async throws {
        let served = try await startDevice(VirtualDeviceConfiguration())
        let run = try await SMPCtl.run(["os", "datetime", "--set", "NOW", "-c", served.endpoint])
        assertSuccess(run)
        XCTAssertTrue(run.stdout.hasPrefix("clock set to "), run.description)
        let isSet = await served.osGroup?.clock.isSet
        XCTAssertEqual(isSet, true)
    }

    func testInvalidTimesAreRejectedWithExit65BeforeAnythingIsSent() async throws {
        let served = try await startDevice(VirtualDeviceConfiguration())
        for text in ["yesterday", "2024-13-01T00:00:00", "2024-02-30T10:00:00", "2024-05-01 12:30", "2024-05-01T25:00:00", ""] {
            let human = try await SMPCtl.run(["os", "datetime", "--set", text, "-c", served.endpoint])
            assertExit(human, 65)
            XCTAssertEqual(human.stdout, "", "\(text): nothing on standard output")
            assertStderr(human, contains: "error: \"\(text)\" is not a valid date and time", "hint: use ISO 8601")

            let json = try await SMPCtl.run(["os", "datetime", "--set", text, "-c", served.endpoint, "--json"])
            let error = try assertErrorDocument(json, name: "data-error", code: 65, messageContains: ["not a valid date and time"])
            XCTAssertNil(error["device"], "not a device error")
        }
        let frames = await served.frames
        XCTAssertEqual(frames, 0, "nothing may be sent for invalid input")
    }

    func testAnInvalidTimeIsReportedEvenWithoutAConnection() async throws {
        // The input is checked first: a bad time is a data error (65), not a missing device (64).
        let run = try await SMPCtl.run(["os", "datetime", "--set", "soon"])
        assertExit(run, 65)
        assertStderr(run, contains: "\"soon\" is not a valid date and time")
    }

    /// Seconds since 1970 of a UTC date-time.
    private static func secondsSince1970(_ time: SMPDateTime) -> Double? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(
            year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second)
        return calendar.date(from: components).map { $0.timeIntervalSince1970 + Double(time.millisecond ?? 0) / 1000 }
    }
}
