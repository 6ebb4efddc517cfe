import CBOR
import XCTest
@testable import SMP

final class OSTaskStatisticsTests: XCTestCase {
    func testRequest() {
        assertRequest(OSTaskStatistics().request, command: 2, operation: .read, payload: "a0", retrySafe: true)
    }

    func testAllFields() throws {
        let payload: CBORMap = ["tasks": [
            "main": [
                "prio": -1, "tid": 3, "state": 0x80, "stksiz": 256, "stkuse": 120, "runtime": 123_456,
                "cswcnt": 7, "last_checkin": 8, "next_checkin": 9,
            ],
        ]]
        let tasks = try OSTaskStatistics().decodeResponse(payload)
        XCTAssertEqual(tasks.count, 1)
        let task = try XCTUnwrap(tasks.first)
        XCTAssertEqual(task.name, "main")
        XCTAssertEqual(task.priority, -1)
        XCTAssertEqual(task.id, 3)
        XCTAssertEqual(task.state, 0x80)
        XCTAssertEqual(task.stackSize, 256)
        XCTAssertEqual(task.stackUsed, 120)
        XCTAssertEqual(task.runtime, 123_456)
        XCTAssertEqual(task.contextSwitches, 7)
        XCTAssertEqual(task.lastCheckin, 8)
        XCTAssertEqual(task.nextCheckin, 9)
    }

    func testAbsentFieldsAreNil() throws {
        let tasks = try OSTaskStatistics().decodeResponse(["tasks": ["idle": ["prio": 15]]])
        XCTAssertEqual(tasks.first?.priority, 15)
        XCTAssertNil(tasks.first?.stackSize)
        XCTAssertNil(tasks.first?.runtime)
        XCTAssertNil(tasks.first?.contextSwitches)
    }

    func testDuplicateNamesAreKeptInDeviceOrder() throws {
        // Zephyr without thread names: threads named by priority, two with priority 7.
        let tasks: CBOR = .map(CBORMap([
            .init(key: "7", value: ["prio": 7, "tid": 0]),
            .init(key: "15", value: ["prio": 15, "tid": 1]),
            .init(key: "7", value: ["prio": 7, "tid": 2]),
        ]))
        let decoded = try OSTaskStatistics().decodeResponse(["tasks": tasks])
        XCTAssertEqual(decoded.map(\.name), ["7", "15", "7"])
        XCTAssertEqual(decoded.map(\.id), [0, 1, 2])
    }

    func testIntegerNamesBecomeText() throws {
        let tasks: CBOR = .map(CBORMap([
            .init(key: .unsigned(5), value: ["prio": 5]),
            .init(key: .int(-2), value: ["prio": -2]),
            .init(key: .unsigned(5), value: ["prio": 5, "tid": 9]),
        ]))
        let decoded = try OSTaskStatistics().decodeResponse(["tasks": tasks])
        XCTAssertEqual(decoded.map(\.name), ["5", "-2", "5"])
        XCTAssertEqual(decoded.map(\.id), [nil, nil, 9])
    }

    func testNoTasks() throws {
        XCTAssertEqual(try OSTaskStatistics().decodeResponse(["tasks": [:]]), [])
    }

    func testMalformedResponses() {
        XCTAssertEqual(decodeFailure(OSTaskStatistics(), [:]), "the response has no \"tasks\" field")
        XCTAssertEqual(decodeFailure(OSTaskStatistics(), ["tasks": [1, 2]]), "field \"tasks\" should be a map but is array [1, 2]")
        let byteName: CBOR = .map(CBORMap([.init(key: .bytes([1]), value: ["prio": 1])]))
        XCTAssertEqual(decodeFailure(OSTaskStatistics(), ["tasks": byteName]), "a task name is byte string, not text")
        XCTAssertEqual(decodeFailure(OSTaskStatistics(), ["tasks": ["main": 5]]), "task \"main\" is integer, not a map")
        XCTAssertEqual(decodeFailure(OSTaskStatistics(), ["tasks": ["main": ["prio": "high"]]]),
                       "field \"prio\" should be an integer but is text string \"high\"")
        XCTAssertTrue(decodeFailure(OSTaskStatistics(), ["tasks": ["main": ["stkuse": true]]])?.contains("\"stkuse\"") == true)
    }
}
