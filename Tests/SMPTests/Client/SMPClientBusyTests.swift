import CBOR
import XCTest
@testable import SMP

final class SMPClientBusyTests: XCTestCase {
    func testBusyAnswersAreRetriedWithBackOffThenSurfaced() async throws {
        let device = MockDevice { _, _ in .answer(["rc": 10]) }
        let client = makeClient(device, busyRetries: 3, busyBackoff: .milliseconds(10))
        var error: SMPError?
        let duration = await elapsed {
            error = await thrownError { () async throws(SMPError) in try await client.send(OSEcho("x")) }
        }
        XCTAssertEqual(error?.deviceError, .returnCode(.busy, group: 0, reason: nil))
        let count = await device.requests.count
        XCTAssertEqual(count, 4, "one request and three busy retries")
        XCTAssertGreaterThanOrEqual(duration, .milliseconds(70), "back-off of 10, 20 and 40 ms")
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
