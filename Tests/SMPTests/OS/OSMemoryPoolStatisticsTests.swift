import CBOR
import XCTest
@testable import SMP

final class OSMemoryPoolStatisticsTests: XCTestCase {
    func testRequest() {
        assertRequest(OSMemoryPoolStatistics().request, command: 3, operation: .read, payload: "a0", retrySafe: true)
    }

    func testMynewtResponseUnderMpools() throws {
        let payload: CBORMap = ["rc": 0, "mpools": [
            "msys_1": ["blksiz": 292, "nblks": 12, "nfree": 10, "min": 9],
            "tiny": ["blksiz": 16],
        ]]
        let pools = try OSMemoryPoolStatistics().decodeResponse(payload)
        XCTAssertEqual(pools, [
            .init(name: "msys_1", blockSize: 292, blocks: 12, free: 10, minimumFree: 9),
            .init(name: "tiny", blockSize: 16),
        ])
    }

    func testPoolsAtTheTopLevelIgnoreRc() throws {
        let payload: CBORMap = ["pool": ["blksiz": 32, "nblks": 4, "nfree": 1, "min": 0], "rc": 0]
        XCTAssertEqual(try OSMemoryPoolStatistics().decodeResponse(payload),
                       [.init(name: "pool", blockSize: 32, blocks: 4, free: 1, minimumFree: 0)])
    }

    func testEmpty() throws {
        XCTAssertEqual(try OSMemoryPoolStatistics().decodeResponse([:]), [])
        XCTAssertEqual(try OSMemoryPoolStatistics().decodeResponse(["mpools": [:]]), [])
    }

    func testMalformedResponses() {
        XCTAssertEqual(decodeFailure(OSMemoryPoolStatistics(), ["mpools": ["pool": 3]]),
                       "memory pool entry \"pool\" is not a named map")
        let numbered: CBOR = .map(CBORMap([.init(key: 1, value: ["blksiz": 1])]))
        XCTAssertEqual(decodeFailure(OSMemoryPoolStatistics(), ["mpools": numbered]),
                       "memory pool entry 1 is not a named map")
        XCTAssertEqual(decodeFailure(OSMemoryPoolStatistics(), ["mpools": ["pool": ["nfree": "many"]]]),
                       "field \"nfree\" should be an integer but is text string \"many\"")
    }
}
