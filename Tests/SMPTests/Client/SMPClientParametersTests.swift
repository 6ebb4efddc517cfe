import CBOR
import XCTest
@testable import SMP

final class SMPClientParametersTests: XCTestCase {
    func testReadOnceAndCached() async throws {
        let device = MockDevice()
        let client = makeClient(device)
        async let first = client.parameters()
        async let second = client.parameters()
        let (a, b) = await (first, second)
        let c = await client.parameters()
        XCTAssertEqual(a, MCUmgrParameters(bufferSize: 1024, bufferCount: 4, source: .device))
        XCTAssertEqual(b, a)
        XCTAssertEqual(c, a)
        let reads = await device.requests(command: OSCommandID.parameters).count
        XCTAssertEqual(reads, 1)
        await client.close()
    }

    func testAssumedWhenTheDeviceDoesNotSupportTheCommand() async throws {
        let device = MockDevice { _, _ in .answer(["rc": 8]) }
        let client = makeClient(device)
        let parameters = await client.parameters()
        XCTAssertEqual(parameters.bufferSize, device.defaultParameters.bufferSize)
        XCTAssertEqual(parameters.bufferCount, device.defaultParameters.bufferCount)
        guard case .assumed(let reason) = parameters.source else { return XCTFail("expected assumed parameters") }
        XCTAssertTrue(reason.contains("MGMT_ERR_ENOTSUP"), reason)
        _ = await client.parameters()
        let reads = await device.requests.count
        XCTAssertEqual(reads, 1, "an unsupported command is not asked again")
        await client.close()
    }

    func testAssumedWhenTheDeviceDoesNotAnswer() async throws {
        let device = MockDevice { _, _ in .drop }
        let client = makeClient(device, timeout: .milliseconds(40), retries: 1)
        let parameters = await client.parameters()
        guard case .assumed(let reason) = parameters.source else { return XCTFail("expected assumed parameters") }
        XCTAssertTrue(reason.contains("no response"), reason)
        XCTAssertEqual(parameters.bufferSize, 512)
        let reads = await device.requests.count
        XCTAssertEqual(reads, 2, "parameters are a read, so retried")
        _ = await client.parameters()
        let readsAfter = await device.requests.count
        XCTAssertEqual(readsAfter, 2)
        await client.close()
    }

    func testAssumedWhenTheAnswerIsImplausible() async throws {
        let device = MockDevice { _, _ in .answer(["buf_size": 0, "buf_count": 0]) }
        let client = makeClient(device)
        let parameters = await client.parameters()
        guard case .assumed(let reason) = parameters.source else { return XCTFail("expected assumed parameters") }
        XCTAssertTrue(reason.contains("implausible"), reason)
        await client.close()
    }

    func testMaximumMessageSizeIsTheSmallerOfLinkAndDeviceBuffer() async throws {
        let roomyLink = MockDevice(maximumMessageSize: 2048)
        let clientA = makeClient(roomyLink)
        let limitA = await clientA.maximumMessageSize()
        XCTAssertEqual(limitA, 1024)
        await clientA.close()

        let smallLink = MockDevice(maximumMessageSize: 600)
        let clientB = makeClient(smallLink)
        let limitB = await clientB.maximumMessageSize()
        XCTAssertEqual(limitB, 600)
        await clientB.close()

        let silent = MockDevice(maximumMessageSize: 2048) { _, _ in .answer(["rc": 8]) }
        let clientC = makeClient(silent)
        let limitC = await clientC.maximumMessageSize()
        XCTAssertEqual(limitC, 512, "the transport's assumed buffer size")
        await clientC.close()
    }
}
