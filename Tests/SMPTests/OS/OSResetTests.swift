import CBOR
import XCTest
@testable import SMP

final class OSResetTests: XCTestCase {
    func testPlainResetIsAnEmptyMapAndNeverRetried() {
        assertRequest(OSReset().request, command: 5, operation: .write, payload: "a0", retrySafe: false)
    }

    func testWorkedExampleFrame() {
        let request = OSReset().request
        let frame = SMPMessage(
            header: SMPHeader(operation: request.operation, length: 0, group: request.group, sequence: 2, command: request.command),
            payload: request.payload
        ).encoded()
        XCTAssertEqual(frame, hex("0a 00 00 01 00 00 02 05 a0"))
    }

    func testForceIsABoolean() {
        // {"force": true}
        assertRequest(OSReset(force: true).request, command: 5, operation: .write,
                      payload: "a1 65 66 6f 72 63 65 f5", retrySafe: false)
    }

    func testBootMode() {
        // {"boot_mode": 1}
        assertRequest(OSReset(bootMode: 1).request, command: 5, operation: .write,
                      payload: "a1 69 62 6f 6f 74 5f 6d 6f 64 65 01", retrySafe: false)
        // {"force": true, "boot_mode": 200}
        assertRequest(OSReset(force: true, bootMode: 200).request, command: 5, operation: .write,
                      payload: "a2 65 66 6f 72 63 65 f5 69 62 6f 6f 74 5f 6d 6f 64 65 18 c8", retrySafe: false)
    }

    func testTheAnswerIsOnlyAnAcknowledgement() async {
        await assertAcknowledgedOnly(OSReset())
        await assertAcknowledgedOnly(OSReset(force: true, bootMode: OSReset.bootloaderBootMode))
    }
}
