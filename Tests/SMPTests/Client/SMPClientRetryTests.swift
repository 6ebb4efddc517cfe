import CBOR
import SMPTestSupport
import XCTest
@testable import SMP

final class SMPClientRetryTests: XCTestCase {
    func testPerRequestTimeoutOverridesTheDefault() async throws {
        let device = MockDevice { _, _ in .drop }
        let clock = ManualClock()
        let client = makeClient(device, timeout: .seconds(10), clock: clock)
        var request = OSReset().request
        request.timeout = .milliseconds(60)
        let sent = request
        let task = Task { () async throws(SMPError) in try await client.exchange(sent) }
        // The request's deadline is its own 60 ms after it was written, not the default 10 s.
        try await clock.sleeper(at: .milliseconds(60))
        clock.advance(to: .milliseconds(60))
        guard case .failure(let failure)? = await outcomeWhileTheClockStands(of: task), let error = failure as? SMPError,
            case .timeout(let summary, let after, let attempts, let lastDiscarded, let elapsed) = error
        else {
            return XCTFail("expected a timeout")
        }
        XCTAssertEqual(after, .milliseconds(60))
        XCTAssertEqual(attempts, 1)
        XCTAssertNil(lastDiscarded)
        XCTAssertEqual(summary.name, "os reset")
        XCTAssertEqual(elapsed, .milliseconds(60), "the time on the client's clock")
        XCTAssertTrue(error.description.contains("no response within 60 ms"), error.description)
        await client.close()
    }

    func testALongerPerRequestTimeoutLetsASlowAnswerArrive() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .milliseconds(50))
        var request = OSEcho("slow").request
        request.timeout = .seconds(5)
        let task = Task { try await client.exchange(request) }
        await assertHeld(device, 1)
        try await Task.sleep(for: .milliseconds(150))
        for held in await device.takeHeld() {
            await device.push(MockDevice.response(to: held, payload: ["r": "slow"]))
        }
        let response = try await task.value
        XCTAssertEqual(response.payload, ["r": "slow"])
        await client.close()
    }

    func testRetrySafeRequestsAreSentAgainWithTheSameSequence() async throws {
        let device = MockDevice { _, _ in .drop }
        let client = makeClient(device, timeout: .milliseconds(50), retries: 2)
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSEcho("lost")) }
        XCTAssertEqual(error?.timeoutAttempts, 3)
        // The real time of the three tries, then how they were made.
        let description = error?.description ?? ""
        XCTAssertTrue(description.hasSuffix(" ms (3 tries of 50 ms each)"), description)
        let within = description.split(separator: "no response within ").last?.split(separator: " ").first.flatMap { Int($0) }
        XCTAssertGreaterThanOrEqual(within ?? 0, 150, description)
        let requests = await device.requests
        XCTAssertEqual(requests.count, 3)
        XCTAssertEqual(Set(requests.map(\.header.sequence)).count, 1)
        XCTAssertEqual(Set(requests.map(\.payload)), [["d": "lost"]])
        let statistics = await client.statistics
        XCTAssertEqual(statistics.requests, 1)
        XCTAssertEqual(statistics.retransmissions, 2)
        XCTAssertEqual(statistics.timeouts, 1)
        await client.close()
    }

    func testARetryAfterALostResponseSucceeds() async throws {
        let device = MockDevice { request, index in
            index == 0 ? .drop : .answer(MockDevice.standardAnswer(to: request))
        }
        let client = makeClient(device, timeout: .milliseconds(50), retries: 2)
        let answer = try await client.send(OSEcho("again"))
        XCTAssertEqual(answer, "again")
        let count = await device.requests.count
        XCTAssertEqual(count, 2)
        await client.close()
    }

    func testReadsAreRetried() async throws {
        let device = MockDevice { _, _ in .drop }
        let client = makeClient(device, timeout: .milliseconds(40), retries: 1)
        for command in [OSParameters().request, OSTaskStatistics().request, OSDateTimeRead().request, OSBootloaderName().request] {
            let error = await thrownError { () async throws(SMPError) in try await client.exchange(command) }
            XCTAssertEqual(error?.timeoutAttempts, 2, "\(command.name ?? "")")
        }
        let count = await device.requests.count
        XCTAssertEqual(count, 8)
        await client.close()
    }

    func testResetAndDateTimeWriteAreNeverRetried() async throws {
        let device = MockDevice { _, _ in .drop }
        let client = makeClient(device, timeout: .milliseconds(40), retries: 3)
        let reset = await thrownError { () async throws(SMPError) in try await client.send(OSReset(force: true)) }
        XCTAssertEqual(reset?.timeoutAttempts, 1)
        let time = SMPDateTime(year: 2024, month: 1, day: 1, hour: 0, minute: 0, second: 0)
        let write = await thrownError { () async throws(SMPError) in try await client.send(OSDateTimeWrite(time)) }
        XCTAssertEqual(write?.timeoutAttempts, 1)
        let commands = await device.requests.map(\.header.command)
        XCTAssertEqual(commands, [OSCommandID.reset, OSCommandID.dateTime])
        let statistics = await client.statistics
        XCTAssertEqual(statistics.retransmissions, 0)
        XCTAssertEqual(statistics.timeouts, 2)
        await client.close()
    }

    func testAnInvalidCBORResponseIsRetriedAtOnce() async throws {
        let device = MockDevice { request, index in
            if index == 0 {
                let garbage = MockDevice.rawFrame(
                    opBits: 3, group: 0, sequence: request.header.sequence, command: 0, payload: [0xA1, 0x61, 0x72, 0xFF])
                return .frames([garbage])
            }
            return .answer(MockDevice.standardAnswer(to: request))
        }
        // The clock never moves: the resend cannot wait for the timeout.
        let client = makeClient(device, timeout: .seconds(5), retries: 1, clock: ManualClock())
        let answer = await outcomeWhileTheClockStands(of: Task { try await client.send(OSEcho("fixed")) })
        XCTAssertEqual(try answer?.get(), "fixed")
        let requests = await device.requests
        XCTAssertEqual(requests.count, 2)
        XCTAssertEqual(requests[0].header.sequence, requests[1].header.sequence)
        let statistics = await client.statistics
        XCTAssertEqual(statistics.discarded, [.invalidPayload: 1])
        XCTAssertEqual(statistics.retransmissions, 1)
        XCTAssertEqual(statistics.timeouts, 0)
        await client.close()
    }

    func testAnInvalidResponseToAnUnsafeRequestIsNotResentAndIsReportedWithTheTimeout() async throws {
        let device = MockDevice { request, _ in
            .frames([MockDevice.rawFrame(opBits: 3, group: 0, sequence: request.header.sequence, command: 5, payload: [0x83, 1, 2, 3])])
        }
        let client = makeClient(device, timeout: .milliseconds(60), retries: 3)
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSReset()) }
        guard case .timeout(_, _, let attempts, let lastDiscarded?, _)? = error else {
            return XCTFail("expected a timeout naming the discarded response, got \(String(describing: error))")
        }
        XCTAssertEqual(attempts, 1)
        XCTAssertTrue(lastDiscarded.contains("not a map"), lastDiscarded)
        XCTAssertTrue(error!.description.contains("an invalid response was discarded"), error!.description)
        let count = await device.requests.count
        XCTAssertEqual(count, 1)
        await client.close()
    }

    func testALateAnswerAfterATimeoutIsDiscarded() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .milliseconds(40))
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSReset()) }
        XCTAssertEqual(error?.timeoutAttempts, 1)
        let late = await device.takeHeld()
        XCTAssertEqual(late.count, 1)
        await device.push(MockDevice.response(to: late[0], payload: [:]))
        await device.setScript(MockDevice.standard)
        let answer = try await client.send(OSEcho("next"))
        XCTAssertEqual(answer, "next")
        let statistics = await client.statistics
        XCTAssertEqual(statistics.discarded, [.unmatchedSequence: 1])
        await client.close()
    }
}
