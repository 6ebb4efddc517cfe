import CBOR
import XCTest
@testable import SMP

final class SMPClientSequenceTests: XCTestCase {
    func testSequenceNumbersIncreaseAndWrapAcross600Requests() async throws {
        let device = MockDevice()
        let client = makeClient(device)
        for index in 0..<600 {
            let answer = try await client.send(OSEcho("m\(index)"))
            XCTAssertEqual(answer, "m\(index)")
        }
        let sequences = await device.requests.map(\.header.sequence)
        XCTAssertEqual(sequences.count, 600)
        for (previous, next) in zip(sequences, sequences.dropFirst()) {
            XCTAssertEqual(next, previous &+ 1)
        }
        XCTAssertTrue(zip(sequences, sequences.dropFirst()).contains { $0 == 255 && $1 == 0 }, "wrapped at 255")
        let statistics = await client.statistics
        XCTAssertEqual(statistics.requests, 600)
        XCTAssertEqual(statistics.responses, 600)
        XCTAssertEqual(statistics.retransmissions, 0)
        await client.close()
    }

    func testAPendingSequenceNumberIsSkippedWhenTheCounterWraps() async throws {
        let device = MockDevice { request, index in
            index == 0 ? .hold : .answer(MockDevice.standardAnswer(to: request))
        }
        let client = makeClient(device)
        let slow = Task { try await client.send(OSEcho("slow")) }
        await assertHeld(device, 1)
        let held = await device.held
        let slowSequence = try XCTUnwrap(held.first?.header.sequence)

        for index in 0..<300 {
            let answer = try await client.send(OSEcho("fast\(index)"))
            XCTAssertEqual(answer, "fast\(index)")
        }
        let fastSequences = await device.requests.dropFirst().map(\.header.sequence)
        XCTAssertFalse(fastSequences.contains(slowSequence), "the pending sequence number was reused")
        XCTAssertEqual(Set(fastSequences).count, 255)

        for request in await device.takeHeld() {
            await device.push(MockDevice.response(to: request, payload: ["r": "slow"]))
        }
        let slowAnswer = try await slow.value
        XCTAssertEqual(slowAnswer, "slow")
        await client.close()
    }

    func testEveryRequestCarriesTheConfiguredVersionAndItsOwnRouting() async throws {
        let device = MockDevice()
        let client = makeClient(device)
        _ = try await client.send(OSEcho("a"))
        try await client.send(OSReset())
        _ = try await client.send(OSParameters())
        let requests = await device.requests
        XCTAssertEqual(requests.map(\.header.versionBits), [1, 1, 1])
        XCTAssertEqual(requests.map(\.header.command), [0, 5, 6])
        XCTAssertEqual(requests.map(\.header.operation), [.write, .write, .read])
        XCTAssertEqual(requests.map(\.header.flags), [0, 0, 0])
        XCTAssertEqual(requests.map(\.payload), [["d": "a"], [:], [:]])
        await client.close()
    }
}
