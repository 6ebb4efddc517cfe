import CBOR
import XCTest
@testable import SMP

final class SMPClientSizeTests: XCTestCase {
    func testARequestLargerThanTheLinkLimitIsRefusedWithoutSending() async throws {
        let device = MockDevice(maximumMessageSize: 64)
        let client = makeClient(device)
        let error = await thrownError { () async throws(SMPError) in
            try await client.send(OSEcho(String(repeating: "x", count: 52)))
        }
        guard case .requestTooLarge(let request, let size, let limit, let source)? = error else {
            return XCTFail("expected requestTooLarge, got \(String(describing: error))")
        }
        XCTAssertEqual(request.name, "os echo")
        XCTAssertEqual(size, 65)
        XCTAssertEqual(limit, 64)
        XCTAssertTrue(source.contains("mock:device"), source)
        XCTAssertEqual(error?.description,
                       "os echo (group 0 command 0 write): the request is 65 bytes but at most 64 fit in one message (mock:device link limit)")
        let sent = await device.requests.filter { $0.header.command != OSCommandID.parameters }
        XCTAssertEqual(sent.count, 0, "only the MCUmgr parameters were asked for")
        await client.close()
    }

    func testARequestOfExactlyTheLinkLimitIsSent() async throws {
        let device = MockDevice(maximumMessageSize: 64)
        let client = makeClient(device)
        let text = String(repeating: "x", count: 51)
        let answer = try await client.send(OSEcho(text))
        XCTAssertEqual(answer, text)
        let frameSize = await device.requests.first?.encoded().count
        XCTAssertEqual(frameSize, 64)
        await client.close()
    }

    func testOnceKnownTheDeviceBufferSizeLimitsRequests() async throws {
        let device = MockDevice { request, _ in
            request.header.command == OSCommandID.parameters
                ? .answer(["buf_size": 100, "buf_count": 2]) : .answer(MockDevice.standardAnswer(to: request))
        }
        let client = makeClient(device)
        let parameters = await client.parameters()
        XCTAssertEqual(parameters.bufferSize, 100)
        _ = try await client.send(OSEcho(String(repeating: "y", count: 80)))
        let error = await thrownError { () async throws(SMPError) in
            try await client.send(OSEcho(String(repeating: "y", count: 100)))
        }
        guard case .requestTooLarge(_, _, let limit, let source)? = error else {
            return XCTFail("expected requestTooLarge, got \(String(describing: error))")
        }
        XCTAssertEqual(limit, 100)
        XCTAssertEqual(source, "device buf_size 100")
        await client.close()
    }

    func testAssumedParametersLimitRequestsUnlessTheCallerKnowsBetter() async throws {
        let silent: MockDevice.Script = { request, _ in
            request.header.command == OSCommandID.parameters ? .answer(["rc": 8]) : .answer(MockDevice.standardAnswer(to: request))
        }
        let text = String(repeating: "z", count: 600)
        let device = MockDevice(script: silent)
        let client = makeClient(device)
        let parameters = await client.parameters()
        XCTAssertEqual(parameters.bufferSize, 512)
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSEcho(text)) }
        guard case .requestTooLarge(_, _, let limit, let source)? = error else {
            return XCTFail("expected requestTooLarge, got \(String(describing: error))")
        }
        XCTAssertEqual(limit, 512)
        XCTAssertTrue(source.hasPrefix("assumed buf_size 512"), source)
        await client.close()

        let told = MockDevice(script: silent)
        let toldClient = SMPClient(transport: told, configuration: SMPClientConfiguration(timeout: .seconds(2), retries: 0, assumedBufferSize: 1024))
        let answer = try await toldClient.send(OSEcho(text))
        XCTAssertEqual(answer, text)
        await toldClient.close()
    }
}
