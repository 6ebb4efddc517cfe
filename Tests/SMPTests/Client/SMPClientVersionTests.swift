import CBOR
import XCTest
@testable import SMP

final class SMPClientVersionTests: XCTestCase {
    func testAVersionZeroResponseSwitchesTheSessionToV1() async throws {
        let device = MockDevice { request, _ in .answer(MockDevice.standardAnswer(to: request), versionBits: 0) }
        let client = makeClient(device)
        let before = await client.protocolVersion
        XCTAssertEqual(before, .v2)
        let answer = try await client.send(OSEcho("legacy"))
        XCTAssertEqual(answer, "legacy")
        let after = await client.protocolVersion
        XCTAssertEqual(after, .v1)
        _ = try await client.send(OSEcho("again"))
        _ = try await client.send(OSParameters())
        let versions = await device.requests.map(\.header.versionBits)
        XCTAssertEqual(versions, [1, 0, 0])
        let firstBytes = await device.requests.map { $0.encoded()[0] }
        XCTAssertEqual(firstBytes, [0x0A, 0x02, 0x00])
        await client.close()
    }

    func testAV2ResponseKeepsV2() async throws {
        let device = MockDevice()
        let client = makeClient(device)
        _ = try await client.send(OSEcho("a"))
        _ = try await client.send(OSEcho("b"))
        let version = await client.protocolVersion
        XCTAssertEqual(version, .v2)
        let versions = await device.requests.map(\.header.versionBits)
        XCTAssertEqual(versions, [1, 1])
        await client.close()
    }

    func testMCUbootStyleRcOnlyErrorInAV2ResponseKeepsV2() async throws {
        let device = MockDevice { _, _ in .answer(["rc": 8]) }
        let client = makeClient(device)
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSTaskStatistics()) }
        XCTAssertEqual(error?.deviceError, .returnCode(.notSupported, group: 0, reason: nil))
        let version = await client.protocolVersion
        XCTAssertEqual(version, .v2)
        await client.close()
    }

    func testRc13ToAV2RequestIsResentOnceAsV1() async throws {
        let device = MockDevice { request, _ in
            request.header.versionBits == 1 ? .answer(["rc": 13]) : .answer(MockDevice.standardAnswer(to: request))
        }
        let client = makeClient(device)
        let answer = try await client.send(OSEcho("old"))
        XCTAssertEqual(answer, "old")
        let requests = await device.requests
        XCTAssertEqual(requests.map(\.header.versionBits), [1, 0])
        XCTAssertEqual(requests[0].header.sequence, requests[1].header.sequence)
        XCTAssertEqual(requests[1].payload, ["d": "old"])
        let version = await client.protocolVersion
        XCTAssertEqual(version, .v1)
        _ = try await client.send(OSEcho("next"))
        let last = await device.requests.last?.header.versionBits
        XCTAssertEqual(last, 0)
        let statistics = await client.statistics
        XCTAssertEqual(statistics.retransmissions, 1)
        XCTAssertEqual(statistics.requests, 2)
        await client.close()
    }

    func testRc13IsNotResentTwice() async throws {
        let device = MockDevice { _, _ in .answer(["rc": 13]) }
        let client = makeClient(device, retries: 3)
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSEcho("x")) }
        XCTAssertEqual(error?.deviceError, .returnCode(.unsupportedTooNew, group: 0, reason: nil))
        let versions = await device.requests.map(\.header.versionBits)
        XCTAssertEqual(versions, [1, 0])
        await client.close()
    }

    func testRc13ResendAppliesToRequestsThatAreNotRetrySafe() async throws {
        // The device rejected the request without running it.
        let device = MockDevice { request, _ in request.header.versionBits == 1 ? .answer(["rc": 13]) : .answer([:]) }
        let client = makeClient(device)
        try await client.send(OSReset())
        let versions = await device.requests.map(\.header.versionBits)
        XCTAssertEqual(versions, [1, 0])
        await client.close()
    }

    func testRc12ToAV1RequestIsResentAsV2() async throws {
        let device = MockDevice { request, _ in
            request.header.versionBits == 0
                ? .answer(["rc": 12]) : .answer(MockDevice.standardAnswer(to: request))
        }
        let client = makeClient(device, initialVersion: .v1)
        let before = await client.protocolVersion
        XCTAssertEqual(before, .v1)
        let answer = try await client.send(OSEcho("new"))
        XCTAssertEqual(answer, "new")
        let after = await client.protocolVersion
        XCTAssertEqual(after, .v2)
        _ = try await client.send(OSEcho("next"))
        let versions = await device.requests.map(\.header.versionBits)
        XCTAssertEqual(versions, [0, 1, 1])
        await client.close()
    }

    func testRc12ToAV2RequestIsAnError() async throws {
        let device = MockDevice { _, _ in .answer(["rc": 12]) }
        let client = makeClient(device)
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSEcho("x")) }
        XCTAssertEqual(error?.deviceError, .returnCode(.unsupportedTooOld, group: 0, reason: nil))
        let count = await device.requests.count
        XCTAssertEqual(count, 1)
        await client.close()
    }
}
