import CBOR
import XCTest
@testable import SMP

final class OSApplicationInfoTests: XCTestCase {
    func testRequestWithoutFormatIsAnEmptyMap() {
        assertRequest(OSApplicationInfo().request, command: 7, operation: .read, payload: "a0", retrySafe: true)
    }

    func testRequestWithFormat() {
        // {"format": "a"}
        assertRequest(OSApplicationInfo(format: "a").request, command: 7, operation: .read,
                      payload: "a1 66 66 6f 72 6d 61 74 61 61", retrySafe: true)
    }

    func testResponse() throws {
        XCTAssertEqual(try OSApplicationInfo().decodeResponse(["output": "Zephyr"]), "Zephyr")
    }

    func testMalformedResponse() {
        XCTAssertEqual(decodeFailure(OSApplicationInfo(), [:]), "the response has no \"output\" field")
        XCTAssertTrue(decodeFailure(OSApplicationInfo(), ["output": .bytes([1])])?.contains("\"output\"") == true)
    }

    func testFormatCharactersAreDocumented() {
        XCTAssertEqual(String(OSApplicationInfo.formatCharacters.map(\.0)), "snrvbmpioa")
    }
}
