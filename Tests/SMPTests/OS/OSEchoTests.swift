import CBOR
import XCTest
@testable import SMP

final class OSEchoTests: XCTestCase {
    func testRequest() {
        assertRequest(OSEcho("hello").request, command: 0, operation: .write,
                      payload: "a1 61 64 65 68 65 6c 6c 6f", retrySafe: true)
        XCTAssertEqual(OSEcho("hello").request.name, "os echo")
    }

    func testWorkedExampleFrame() {
        let request = OSEcho("hello").request
        let frame = SMPMessage(
            header: SMPHeader(operation: request.operation, length: 0, group: request.group, sequence: 0x42, command: request.command),
            payload: request.payload
        ).encoded()
        XCTAssertEqual(frame, hex("0a 00 00 09 00 00 42 00 a1 61 64 65 68 65 6c 6c 6f"))
    }

    func testEmptyText() {
        assertRequest(OSEcho("").request, command: 0, operation: .write, payload: "a1 61 64 60", retrySafe: true)
    }

    func testResponse() throws {
        XCTAssertEqual(try OSEcho("hi").decodeResponse(["r": "hi"]), "hi")
        XCTAssertEqual(try OSEcho("hi").decodeResponse(["r": "hi", "rc": 0, "extra": 1]), "hi")
    }

    func testMalformedResponses() {
        XCTAssertEqual(decodeFailure(OSEcho("hi"), [:]), "the response has no \"r\" field")
        XCTAssertEqual(decodeFailure(OSEcho("hi"), ["r": 5]), "field \"r\" should be a text string but is integer 5")
    }
}
