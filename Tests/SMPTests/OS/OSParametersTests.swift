import CBOR
import XCTest
@testable import SMP

final class OSParametersTests: XCTestCase {
    func testRequest() {
        assertRequest(OSParameters().request, command: 6, operation: .read, payload: "a0", retrySafe: true)
    }

    func testResponse() throws {
        let parameters = try OSParameters().decodeResponse(["buf_size": 2475, "buf_count": 4])
        XCTAssertEqual(parameters, MCUmgrParameters(bufferSize: 2475, bufferCount: 4, source: .device))
        XCTAssertEqual(parameters.window, 3)
        XCTAssertEqual(MCUmgrParameters(bufferSize: 1024, bufferCount: 1).window, 1)
    }

    func testPlausibleLimits() throws {
        XCTAssertEqual(try OSParameters().decodeResponse(["buf_size": 1, "buf_count": 1]).bufferSize, 1)
        XCTAssertEqual(try OSParameters().decodeResponse(["buf_size": 65_543, "buf_count": 1024]).bufferSize, 65_543)
    }

    func testImplausibleValues() {
        for (size, count) in [(0, 4), (65_544, 4), (2048, 0), (2048, 1025), (1 << 40, 1)] {
            let detail = decodeFailure(OSParameters(), ["buf_size": .int(Int64(size)), "buf_count": .int(Int64(count))])
            XCTAssertEqual(detail, "implausible parameters buf_size=\(size) buf_count=\(count)")
        }
    }

    func testMissingOrWrongFields() {
        XCTAssertEqual(decodeFailure(OSParameters(), ["buf_count": 4]), "the response has no \"buf_size\" field")
        XCTAssertEqual(decodeFailure(OSParameters(), ["buf_size": 1024]), "the response has no \"buf_count\" field")
        XCTAssertTrue(decodeFailure(OSParameters(), ["buf_size": -1, "buf_count": 4])?.contains("\"buf_size\" should be a non-negative integer") == true)
        XCTAssertTrue(decodeFailure(OSParameters(), ["buf_size": "1024", "buf_count": 4])?.contains("\"buf_size\"") == true)
    }

    func testDescription() {
        XCTAssertEqual(MCUmgrParameters(bufferSize: 2048, bufferCount: 2).description,
                       "buf_size=2048 buf_count=2 (reported by the device)")
        XCTAssertEqual(MCUmgrParameters(bufferSize: 512, bufferCount: 1, source: .assumed(reason: "rc 8")).description,
                       "buf_size=512 buf_count=1 (assumed: rc 8)")
    }
}
