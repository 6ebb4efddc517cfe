import CBOR
import SMP
import SMPSimulator
import XCTest

/// Date-time get and set as Zephyr parses and prints it (docs/protocol/os.md §3.5).
final class OSDateTimeTests: XCTestCase {
    private let uptime = ManualUptime()

    private func device(milliseconds: Bool = true, initial: SMPDateTime? = nil) -> VirtualDevice {
        VirtualDevice(
            configuration: VirtualDeviceConfiguration(initialDateTime: initial, dateTimeMilliseconds: milliseconds),
            uptime: uptime.source)
    }

    private func set(_ text: CBOR, on device: VirtualDevice) async throws -> CBORMap {
        try await device.respond(to: TestFrames.request(.write, command: 4, payload: ["datetime": text])).payload
    }

    private func read(_ device: VirtualDevice) async throws -> CBORMap {
        try await device.respond(to: TestFrames.request(.read, command: 4)).payload
    }

    func testUnsetClockIsRTCNotSet() async throws {
        let device = device()
        let bytes = try await device.payloadBytes(of: TestFrames.request(.read, command: 4))
        XCTAssertEqual(bytes, TestFrames.hex("bf 63 65 72 72 bf 65 67 72 6f 75 70 00 62 72 63 04 ff ff"))
        let v1 = try await device.respond(to: TestFrames.request(.read, command: 4, versionBits: 0))
        XCTAssertEqual(v1.payload, ["rc": 5])
    }

    func testSetThenReadPrintsUnpaddedMilliseconds() async throws {
        let device = device()
        let answer = try await set("2024-02-29T23:59:59.005", on: device)
        XCTAssertEqual(answer, [:])
        let now = try await read(device)
        XCTAssertEqual(now, ["datetime": "2024-02-29T23:59:59.5"])
        uptime.advance(by: .milliseconds(1_000))
        let later = try await read(device)
        XCTAssertEqual(later, ["datetime": "2024-03-01T00:00:00.5"])
        uptime.advance(by: .seconds(366 * 86_400))
        let nextYear = try await read(device)
        XCTAssertEqual(nextYear, ["datetime": "2025-03-02T00:00:00.5"])
    }

    func testReadParsesBackWithTheClientType() async throws {
        let device = device()
        _ = try await set("2030-12-31T10:20:30.123", on: device)
        let response = try await read(device)
        let value = try OSDateTimeRead().decodeResponse(response)
        XCTAssertEqual(value, SMPDateTime(year: 2030, month: 12, day: 31, hour: 10, minute: 20, second: 30, millisecond: 123))
    }

    func testZoneAndDelimitersAreIgnored() async throws {
        let device = device()
        for (text, expected) in [
            ("2024-05-01T12:30:45Z", "2024-05-01T12:30:45.0"),
            ("2024-05-01T12:30:45+01:00", "2024-05-01T12:30:45.0"),
            ("2024/05/01 12.30.45", "2024-05-01T12:30:45.0"),
            ("2024-05-01T12:30:45.999Z", "2024-05-01T12:30:45.999"),
            ("2024-05-01T12:30:45.", "2024-05-01T12:30:45.0"),
            ("2024-05-01T12:30:45.x", "2024-05-01T12:30:45.0"),
            ("2024-5-1T1:2:3         ", "2024-05-01T01:02:03.0"),
            (" 2024-05-01T12:30:45", "2024-05-01T12:30:45.0"),
        ] {
            let answer = try await set(.text(text), on: device)
            XCTAssertEqual(answer, [:], text)
            let now = try await read(device)
            XCTAssertEqual(now["datetime"]?.stringValue, expected, text)
        }
    }

    func testInvalidTextsAreRejected() async throws {
        let device = device()
        for text in [
            "2024-05-01T12:30:4", "2024-05-01T12:30:45.123+01:00:00", "1899-05-01T12:30:45", "11900-05-01T12:30:45",
            "2024-13-01T12:30:45", "2024-00-01T12:30:45", "2024-05-32T12:30:45", "2024-05-00T12:30:45",
            "2024-05-01T24:30:45", "2024-05-01T12:60:45", "2024-05-01T12:30:60", "2024-05-01T12:30:45.1000",
            "2024-05-01T12:30:45.-1", "xxxx-05-01T12:30:45", "2024-05-01T12:30", "2024-05-01T12:30:-1",
        ] {
            let answer = try await set(.text(text), on: device)
            XCTAssertEqual(answer, ["rc": 3], text)
        }
        for value: CBOR in [5, .bytes(Array("2024-05-01T12:30:45".utf8))] {
            let answer = try await set(value, on: device)
            XCTAssertEqual(answer, ["rc": 3])
        }
        let missing = try await device.respond(to: TestFrames.request(.write, command: 4)).payload
        XCTAssertEqual(missing, ["rc": 3])
        let stillUnset = try await read(device)
        XCTAssertEqual(stillUnset, ["err": ["group": 0, "rc": 4]])
    }

    func testYearIsSpacePaddedAndLongYearsWork() async throws {
        let device = device(milliseconds: false)
        _ = try await set("11899-12-31T23:59:59", on: device)
        let now = try await read(device)
        XCTAssertEqual(now, ["datetime": "11899-12-31T23:59:59"])
    }

    func testWithoutMillisecondsTheFractionIsIgnored() async throws {
        let device = device(milliseconds: false)
        _ = try await set("2024-05-01T12:30:45.1234", on: device)
        let now = try await read(device)
        XCTAssertEqual(now, ["datetime": "2024-05-01T12:30:45"])
    }

    func testInitialTimeRuns() async throws {
        let device = device(initial: SMPDateTime(year: 2025, month: 1, day: 1, hour: 0, minute: 0, second: 0))
        uptime.advance(by: .milliseconds(61_250))
        let now = try await read(device)
        XCTAssertEqual(now, ["datetime": "2025-01-01T00:01:01.250"])
    }
}
