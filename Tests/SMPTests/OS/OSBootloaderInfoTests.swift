import CBOR
import XCTest
@testable import SMP

final class OSBootloaderInfoTests: XCTestCase {
    func testRequests() {
        assertRequest(OSBootloaderInfo().request, command: 8, operation: .read, payload: "a0", retrySafe: true)
        assertRequest(OSBootloaderName().request, command: 8, operation: .read, payload: "a0", retrySafe: true)
        // {"query": "mode"}
        assertRequest(OSBootloaderMode().request, command: 8, operation: .read,
                      payload: "a1 65 71 75 65 72 79 64 6d 6f 64 65", retrySafe: true)
        assertRequest(OSBootloaderInfo(query: "active_b0_slot").request, command: 8, operation: .read,
                      payload: "a1 65 71 75 65 72 79 6e 61 63 74 69 76 65 5f 62 30 5f 73 6c 6f 74", retrySafe: true)
    }

    func testGenericAnswerDropsRc() throws {
        XCTAssertEqual(try OSBootloaderInfo(query: "active_b0_slot").decodeResponse(["active": 1, "rc": 0]), ["active": 1])
    }

    func testName() throws {
        XCTAssertEqual(try OSBootloaderName().decodeResponse(["bootloader": "MCUboot"]), "MCUboot")
        XCTAssertEqual(try OSBootloaderName().decodeResponse(["bootloader": "SUIT"]), "SUIT")
        XCTAssertEqual(decodeFailure(OSBootloaderName(), [:]), "the response has no \"bootloader\" field")
    }

    func testModeWithoutNoDowngrade() throws {
        let answer = try OSBootloaderMode().decodeResponse(["mode": 3])
        XCTAssertEqual(answer.mode, .swapUsingMove)
        XCTAssertFalse(answer.noDowngrade)
    }

    func testModeWithNoDowngrade() throws {
        let answer = try OSBootloaderMode().decodeResponse(["mode": 1, "no-downgrade": true])
        XCTAssertEqual(answer.mode, .swapUsingScratch)
        XCTAssertTrue(answer.noDowngrade)
        XCTAssertFalse(try OSBootloaderMode().decodeResponse(["mode": 1, "no-downgrade": false]).noDowngrade)
    }

    func testUnknownAndUnmappedModes() throws {
        XCTAssertEqual(try OSBootloaderMode().decodeResponse(["mode": -1]).mode, .unknown)
        XCTAssertEqual(try OSBootloaderMode().decodeResponse(["mode": 42]).mode.rawValue, 42)
    }

    func testMalformedMode() {
        XCTAssertEqual(decodeFailure(OSBootloaderMode(), [:]), "the response has no \"mode\" field")
        XCTAssertEqual(decodeFailure(OSBootloaderMode(), ["mode": "swap"]),
                       "field \"mode\" should be an integer but is text string \"swap\"")
        XCTAssertEqual(decodeFailure(OSBootloaderMode(), ["mode": 1, "no-downgrade": 1]),
                       "field \"no-downgrade\" should be a boolean but is integer 1")
    }
}
