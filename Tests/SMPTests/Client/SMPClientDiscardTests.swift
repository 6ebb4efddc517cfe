import SMPTestSupport
import CBOR
import XCTest
@testable import SMP

final class SMPClientDiscardTests: XCTestCase {
    /// Sends an echo the device holds, pushes `badFrames` built from its header, then the right
    /// answer; checks that the echo still succeeds and what the client discarded.
    private func assertDiscards(
        _ expected: [SMPClientStatistics.DiscardReason: Int],
        file: StaticString = #filePath, line: UInt = #line,
        _ badFrames: (SMPMessage) -> [[UInt8]]
    ) async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(5))
        let task = Task { try await client.send(OSEcho("ok")) }
        await assertHeld(device, 1, file: file, line: line)
        let held = await device.takeHeld()
        let request = try XCTUnwrap(held.first, file: file, line: line)
        for frame in badFrames(request) { await device.push(frame) }
        await device.push(MockDevice.response(to: request, payload: ["r": "ok"]))
        let answer = try await task.value
        XCTAssertEqual(answer, "ok", file: file, line: line)
        let statistics = await client.statistics
        XCTAssertEqual(statistics.discarded, expected, file: file, line: line)
        XCTAssertEqual(statistics.responses, 1, file: file, line: line)
        let sent = await device.requests.count
        XCTAssertEqual(sent, 1, "nothing was resent", file: file, line: line)
        await client.close()
    }

    func testTruncatedHeader() async throws {
        try await assertDiscards([.truncatedHeader: 2]) { _ in [[0x0B], [0x0B, 0, 0, 0, 0, 0, 0]] }
    }

    func testLengthMismatch() async throws {
        try await assertDiscards([.lengthMismatch: 1]) { request in
            [MockDevice.rawFrame(opBits: 3, length: 10, group: 0, sequence: request.header.sequence, command: 0,
                                 payload: [0xA1, 0x61, 0x72])]
        }
    }

    func testUnmatchedSequence() async throws {
        try await assertDiscards([.unmatchedSequence: 1]) { request in
            var other = request
            other.header.sequence &+= 1
            return [MockDevice.response(to: other, payload: ["r": "stray"])]
        }
    }

    func testMismatchedGroupCommandOrOperation() async throws {
        try await assertDiscards([.mismatchedResponse: 3]) { request in
            let sequence = request.header.sequence
            return [
                MockDevice.rawFrame(opBits: 3, group: 1, sequence: sequence, command: 0, payload: [0xA0]),
                MockDevice.rawFrame(opBits: 3, group: 0, sequence: sequence, command: 1, payload: [0xA0]),
                MockDevice.rawFrame(opBits: 1, group: 0, sequence: sequence, command: 0, payload: [0xA0]),
            ]
        }
    }

    func testRequestOperationInsteadOfResponse() async throws {
        try await assertDiscards([.notAResponse: 2]) { request in
            let sequence = request.header.sequence
            return [
                MockDevice.rawFrame(opBits: 2, group: 0, sequence: sequence, command: 0, payload: [0xA0]),
                MockDevice.rawFrame(opBits: 0, group: 0, sequence: sequence, command: 0, payload: [0xA0]),
            ]
        }
    }

    func testInvalidOperation() async throws {
        try await assertDiscards([.invalidOperation: 1]) { request in
            [MockDevice.rawFrame(opBits: 7, group: 0, sequence: request.header.sequence, command: 0, payload: [0xA0])]
        }
    }

    func testInvalidPayload() async throws {
        try await assertDiscards([.invalidPayload: 2]) { request in
            let sequence = request.header.sequence
            return [
                MockDevice.rawFrame(opBits: 3, group: 0, sequence: sequence, command: 0, payload: [0xFF]),
                MockDevice.rawFrame(opBits: 3, group: 0, sequence: sequence, command: 0, payload: [0x81, 0x01]),
            ]
        }
    }

    func testAnEmptyFrameIsIgnored() async throws {
        try await assertDiscards([:]) { _ in [[]] }
    }

    func testAGoodMessageAfterABadOneInTheSameFrameIsLostWithIt() async throws {
        // Once a length is wrong the rest of the frame cannot be trusted.
        try await assertDiscards([.lengthMismatch: 1]) { request in
            let good = MockDevice.response(to: request, payload: ["r": "ok"])
            let bad = MockDevice.rawFrame(opBits: 3, length: 200, group: 0, sequence: request.header.sequence, command: 0,
                                          payload: [0xA0])
            return [bad + good]
        }
    }

    func testAStrayMessageBeforeTheAnswerInOneFrame() async throws {
        let device = MockDevice { request, _ in
            var stray = request
            stray.header.sequence &+= 7
            return .frames([
                MockDevice.response(to: stray, payload: ["r": "stray"]) + MockDevice.response(to: request, payload: ["r": "ok"]),
            ])
        }
        let client = makeClient(device)
        let answer = try await client.send(OSEcho("ok"))
        XCTAssertEqual(answer, "ok")
        let statistics = await client.statistics
        XCTAssertEqual(statistics.discarded, [.unmatchedSequence: 1])
        await client.close()
    }

    func testGarbageNeverCrashesTheClient() async throws {
        let device = MockDevice()
        let client = makeClient(device)
        _ = try await client.send(OSEcho("start"))
        var generator = SplitMix64(seed: 0x5EED)
        var nonEmpty = 0
        for _ in 0..<3000 {
            let count = Int(generator.next() % 48)
            var frame = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if count >= 8 && generator.next() % 2 == 0 {
                // Make the header plausible so that the deeper checks run too.
                frame[0] = frame[0] & 0x1B | 0x01
                frame[2] = 0
                frame[3] = UInt8(count - 8)
            }
            if !frame.isEmpty { nonEmpty += 1 }
            await device.push(frame)
        }
        let answer = try await client.send(OSEcho("still alive"))
        XCTAssertEqual(answer, "still alive")
        let statistics = await client.statistics
        XCTAssertGreaterThanOrEqual(statistics.totalDiscarded, nonEmpty)
        XCTAssertEqual(statistics.responses, 2)
        XCTAssertGreaterThan(statistics.discarded[.invalidPayload, default: 0] + statistics.discarded[.unmatchedSequence, default: 0], 0)
        await client.close()
    }
}
