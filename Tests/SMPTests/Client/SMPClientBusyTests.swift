import CBOR
import SMPTestSupport
import XCTest
@testable import SMP

final class SMPClientBusyTests: XCTestCase {
    func testBusyAnswersAreRetriedWithBackOffThenSurfaced() async throws {
        let device = MockDevice { _, _ in .answer(["rc": 10]) }
        let clock = ManualClock()
        let client = makeClient(device, busyRetries: 3, busyBackoff: .milliseconds(10), clock: clock)
        let task = Task { () async throws(SMPError) in try await client.send(OSEcho("x")) }
        // Back-off of 10, 20 and 40 ms: each retry waits until its time on the client's clock.
        for (retry, due) in [10, 30, 70].enumerated() {
            try await clock.sleeper(at: .milliseconds(due))
            let sent = await device.requests.count
            XCTAssertEqual(sent, retry + 1, "requests sent before the back-off to \(due) ms ended")
            clock.advance(to: .milliseconds(due))
        }
        guard case .failure(let failure)? = await outcomeWhileTheClockStands(of: task), let error = failure as? SMPError else {
            return XCTFail("the busy answers were not surfaced")
        }
        XCTAssertEqual(error.deviceError, .returnCode(.busy, group: 0, reason: nil))
        let count = await device.requests.count
        XCTAssertEqual(count, 4, "one request and three busy retries")
        let sequences = await device.requests.map(\.header.sequence)
        XCTAssertEqual(Set(sequences).count, 4, "each busy retry is a new request")
        await client.close()
    }

    func testBusyThenSuccess() async throws {
        let device = MockDevice { request, index in
            index < 2 ? .answer(["rc": 10]) : .answer(MockDevice.standardAnswer(to: request))
        }
        let client = makeClient(device, busyRetries: 4, busyBackoff: .milliseconds(5))
        let answer = try await client.send(OSEcho("eventually"))
        XCTAssertEqual(answer, "eventually")
        let count = await device.requests.count
        XCTAssertEqual(count, 3)
        await client.close()
    }

    func testBusyRetriesApplyEvenToRequestsThatAreNotRetrySafe() async throws {
        // A busy device did not run the request, so sending it again is harmless.
        let device = MockDevice { _, index in index == 0 ? .answer(["rc": 10]) : .answer([:]) }
        let client = makeClient(device, busyRetries: 1, busyBackoff: .milliseconds(5))
        try await client.send(OSReset())
        let count = await device.requests.count
        XCTAssertEqual(count, 2)
        await client.close()
    }

    func testNoBusyRetriesSurfacesAtOnce() async throws {
        let device = MockDevice { _, _ in .answer(["rc": 10]) }
        let client = makeClient(device, busyRetries: 0)
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSEcho("x")) }
        XCTAssertEqual(error?.deviceError?.legacyReturnCode, .busy)
        let count = await device.requests.count
        XCTAssertEqual(count, 1)
        await client.close()
    }

    func testOtherErrorsAreNotRetried() async throws {
        let device = MockDevice { _, _ in .answer(["rc": 6]) }
        let client = makeClient(device, retries: 3, busyRetries: 3)
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSEcho("x")) }
        XCTAssertEqual(error?.deviceError, .returnCode(.badState, group: 0, reason: nil))
        let count = await device.requests.count
        XCTAssertEqual(count, 1)
        await client.close()
    }
}
