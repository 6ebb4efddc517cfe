import CBOR
import XCTest
@testable import SMP

final class SMPClientMatchingTests: XCTestCase {
    func testResponsesAnsweredOutOfOrderReachTheirRequests() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device)
        let tasks = (0..<5).map { index in Task { try await client.send(OSEcho("text\(index)")) } }
        await assertHeld(device, 5)
        let held = await device.takeHeld()
        for request in [held[3], held[0], held[4], held[2], held[1]] {
            await device.push(MockDevice.response(to: request, payload: ["r": request.payload["d"]!]))
        }
        for (index, task) in tasks.enumerated() {
            let answer = try await task.value
            XCTAssertEqual(answer, "text\(index)")
        }
        await client.close()
    }

    func testAFrameWithTwoResponsesBackToBackDeliversBoth() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device)
        let first = Task { try await client.send(OSEcho("one")) }
        let second = Task { try await client.send(OSEcho("two")) }
        await assertHeld(device, 2)
        let held = await device.takeHeld()
        let frame = held.reversed().flatMap { MockDevice.response(to: $0, payload: ["r": $0.payload["d"]!]) }
        await device.push(frame)
        let firstAnswer = try await first.value
        let secondAnswer = try await second.value
        XCTAssertEqual(firstAnswer, "one")
        XCTAssertEqual(secondAnswer, "two")
        let statistics = await client.statistics
        XCTAssertEqual(statistics.responses, 2)
        XCTAssertEqual(statistics.totalDiscarded, 0)
        await client.close()
    }

    func testIndefiniteLengthResponsesAreDecoded() async throws {
        let device = MockDevice { _, _ in
            .answer(["tasks": ["main": ["prio": 1], "idle": ["prio": 15]]], indefinite: true)
        }
        let client = makeClient(device)
        let tasks = try await client.send(OSTaskStatistics())
        XCTAssertEqual(tasks.map(\.name), ["main", "idle"])
        await client.close()
    }

    func testUnknownKeysAndNonZeroFlagsInResponsesAreAccepted() async throws {
        let device = MockDevice { request, _ in
            var header = request.header
            header.operation = .writeResponse
            header.flags = 0x40
            return .frames([SMPMessage(header: header, payload: ["r": "hi", "rc": 0, "rsn": "ok", "new": [1]]).encoded()])
        }
        let client = makeClient(device)
        let answer = try await client.send(OSEcho("hi"))
        XCTAssertEqual(answer, "hi")
        await client.close()
    }

    func testRawExchangeReturnsTheWholeResponse() async throws {
        let device = MockDevice { _, _ in .answer(["rc": 3, "rsn": "bad"]) }
        let client = makeClient(device)
        let request = SMPRequest(group: SMPGroup(rawValue: 64), command: 9, operation: .read, payload: ["x": 1])
        let response = try await client.exchange(request)
        XCTAssertEqual(response.header.group.rawValue, 64)
        XCTAssertEqual(response.header.command, 9)
        XCTAssertEqual(response.header.operation, .readResponse)
        XCTAssertEqual(response.payload, ["rc": 3, "rsn": "bad"])
        XCTAssertEqual(response.deviceError, .returnCode(.invalidValue, group: 64, reason: "bad"))
        let sent = await device.requests
        XCTAssertEqual(sent.first?.payload, ["x": 1])
        await client.close()
    }
}
