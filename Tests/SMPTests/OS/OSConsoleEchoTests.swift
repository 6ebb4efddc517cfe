import CBOR
import XCTest
@testable import SMP

final class OSConsoleEchoTests: XCTestCase {
    func testRequests() {
        assertRequest(OSConsoleEcho(enabled: true).request, command: 1, operation: .write,
                      payload: "a1 64 65 63 68 6f 01", retrySafe: true)
        assertRequest(OSConsoleEcho(enabled: false).request, command: 1, operation: .write,
                      payload: "a1 64 65 63 68 6f 00", retrySafe: true)
    }

    func testTheAnswerIsOnlyAnAcknowledgement() async {
        await assertAcknowledgedOnly(OSConsoleEcho(enabled: true))
        await assertAcknowledgedOnly(OSConsoleEcho(enabled: false))
    }
}
