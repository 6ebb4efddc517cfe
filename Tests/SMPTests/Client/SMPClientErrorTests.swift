import CBOR
import XCTest
@testable import SMP

final class SMPClientErrorTests: XCTestCase {
    func testReturnCodeErrorsAreThrownAsDeviceErrors() async throws {
        let device = MockDevice { _, _ in .answer(["rc": 3, "rsn": "bad datetime"]) }
        let client = makeClient(device)
        let time = SMPDateTime(year: 2024, month: 1, day: 1, hour: 0, minute: 0, second: 0)
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSDateTimeWrite(time)) }
        guard case .device(let deviceError, let request)? = error else { return XCTFail("expected a device error") }
        XCTAssertEqual(deviceError, .returnCode(.invalidValue, group: 0, reason: "bad datetime"))
        XCTAssertEqual(request.name, "os datetime write")
        XCTAssertEqual(request.command, OSCommandID.dateTime)
        XCTAssertTrue(error!.description.hasPrefix("os datetime write (group 0 command 4 write): the device answered"),
                      error!.description)
        await client.close()
    }

    func testGroupErrorsAreThrownAsDeviceErrors() async throws {
        let device = MockDevice { _, _ in .answer(["err": ["group": 0, "rc": 4]]) }
        let client = makeClient(device)
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSDateTimeRead()) }
        XCTAssertEqual(error?.deviceError, .groupError(SMPGroupError(group: 0, code: 4, requestGroup: 0)))
        XCTAssertEqual(error?.deviceError?.legacyReturnCode, SMPGroupError(group: 0, code: 4).legacyReturnCode)
        await client.close()
    }

    func testNotSupportedComesWithAHint() async throws {
        let device = MockDevice { _, _ in .answer(["rc": 8]) }
        let client = makeClient(device)
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSMemoryPoolStatistics()) }
        XCTAssertEqual(error?.deviceError, .returnCode(.notSupported, group: 0, reason: nil))
        XCTAssertTrue(error?.hint?.contains("Kconfig") == true)
        await client.close()
    }

    func testRcZeroIsSuccess() async throws {
        let device = MockDevice { request, _ in
            var answer = MockDevice.standardAnswer(to: request)
            answer["rc"] = 0
            return .answer(answer)
        }
        let client = makeClient(device)
        let answer = try await client.send(OSEcho("legacy rc"))
        XCTAssertEqual(answer, "legacy rc")
        await client.close()
    }

    func testAResponseWithoutTheExpectedFieldIsAnInvalidResponse() async throws {
        let device = MockDevice { _, _ in .answer(["x": 1]) }
        let client = makeClient(device)
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSEcho("x")) }
        guard case .invalidResponse(let request, let detail)? = error else {
            return XCTFail("expected an invalid response, got \(String(describing: error))")
        }
        XCTAssertEqual(request.name, "os echo")
        XCTAssertEqual(detail, SMPResponseError("the response has no \"r\" field"))
        XCTAssertEqual(error?.description, "os echo (group 0 command 0 write): invalid response: the response has no \"r\" field")
        XCTAssertNotNil(error?.hint)
        await client.close()
    }

    func testAMalformedFieldIsAnInvalidResponse() async throws {
        let device = MockDevice { _, _ in .answer(["buf_size": "big", "buf_count": 1]) }
        let client = makeClient(device)
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSParameters()) }
        guard case .invalidResponse(_, let detail)? = error else { return XCTFail("expected an invalid response") }
        XCTAssertTrue(detail.detail.contains("\"buf_size\""), detail.detail)
        await client.close()
    }

    func testCheckedResponseThrowsAndExchangeDoesNot() async throws {
        let device = MockDevice { _, _ in .answer(["rc": 5]) }
        let client = makeClient(device)
        let request = SMPRequest(group: .image, command: 0, operation: .read)
        let response = try await client.exchange(request)
        XCTAssertEqual(response.deviceError, .returnCode(.noEntry, group: 1, reason: nil))
        let error = await thrownError { () async throws(SMPError) in try await client.checkedResponse(to: request) }
        XCTAssertEqual(error?.deviceError, .returnCode(.noEntry, group: 1, reason: nil))
        await client.close()
    }
}
