import CBOR
import SMPTestSupport
import XCTest
@testable import SMP

/// The clients run on a ``ManualClock`` that never moves: a request can end only by what the
/// test does to the link, never by its timeout.
final class SMPClientCloseTests: XCTestCase {
    private struct CablePulled: Error {}

    private let clock = ManualClock()

    /// Starts `count` held echo requests and waits until the device has them all.
    private func pendingRequests(_ client: SMPClient, _ device: MockDevice, count: Int) async -> [Task<String, any Error>] {
        let tasks = (0..<count).map { index in Task { try await client.send(OSEcho("p\(index)")) } }
        let arrived = await device.waitForHeld(count)
        XCTAssertTrue(arrived)
        return tasks
    }

    private func transportErrors(of tasks: [Task<String, any Error>]) async -> [SMPTransportError?] {
        var errors: [SMPTransportError?] = []
        for task in tasks {
            switch await outcomeWhileTheClockStands(of: task) {
            case .success?:
                XCTFail("a pending request succeeded")
                errors.append(nil)
            case .failure(let error)?: errors.append((error as? SMPError)?.transportError)
            case nil: errors.append(nil)
            }
        }
        return errors
    }

    /// The error of sending one echo, awaited while the clock stands still.
    private func sendError(_ client: SMPClient, _ text: String) async -> SMPError? {
        guard case .failure(let error)? = await outcomeWhileTheClockStands(of: Task { try await client.send(OSEcho(text)) }) else {
            XCTFail("sending \(text) did not fail")
            return nil
        }
        return error as? SMPError
    }

    func testClosingFailsEveryPendingRequestAtOnce() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(5), clock: clock)
        let tasks = await pendingRequests(client, device, count: 10)
        await client.close()
        let errors = await transportErrors(of: tasks)
        XCTAssertEqual(errors.map { $0?.kind }, Array(repeating: .closed, count: 10))
        XCTAssertTrue(errors.first??.message.contains("mock:device") == true)
        let closeCount = await device.closeCount
        XCTAssertEqual(closeCount, 1)
    }

    func testRequestsAfterCloseFailImmediatelyWithoutBeingSent() async throws {
        let device = MockDevice()
        let client = makeClient(device, timeout: .seconds(5), clock: clock)
        _ = try await client.send(OSEcho("before"))
        await client.close()
        let error = await sendError(client, "after")
        XCTAssertEqual(error?.transportError?.kind, .closed)
        let count = await device.requests.count
        XCTAssertEqual(count, 1)
    }

    func testCloseBeforeAnyRequest() async throws {
        let device = MockDevice()
        let client = makeClient(device)
        await client.close()
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSEcho("x")) }
        XCTAssertEqual(error?.transportError?.kind, .closed)
        let count = await device.requests.count
        XCTAssertEqual(count, 0)
    }

    func testTheDeviceGoingAwayFailsPendingAndLaterRequests() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(5), clock: clock)
        let tasks = await pendingRequests(client, device, count: 3)
        await device.disconnect()
        let errors = await transportErrors(of: tasks)
        XCTAssertEqual(errors.map { $0?.kind }, [.closed, .closed, .closed])
        let later = await thrownError { () async throws(SMPError) in try await client.send(OSEcho("x")) }
        XCTAssertEqual(later?.transportError?.kind, .closed)
        await client.close()
    }

    func testALinkFailureIsReportedWithItsOwnError() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(5), clock: clock)
        let tasks = await pendingRequests(client, device, count: 2)
        await device.disconnect(throwing: SMPTransportError(.io, "cable pulled"))
        let errors = await transportErrors(of: tasks)
        XCTAssertEqual(errors, [SMPTransportError(.io, "cable pulled"), SMPTransportError(.io, "cable pulled")])
        await client.close()
    }

    func testAForeignLinkErrorBecomesAnIOError() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(5), clock: clock)
        let tasks = await pendingRequests(client, device, count: 1)
        await device.disconnect(throwing: CablePulled())
        let errors = await transportErrors(of: tasks)
        XCTAssertEqual(errors.first??.kind, .io)
        XCTAssertTrue(errors.first??.message.hasPrefix("mock:device: ") == true, String(describing: errors))
        await client.close()
    }

    func testASendFailureFailsTheRequestAndTheLink() async throws {
        let device = MockDevice()
        await device.failSends(with: SMPTransportError(.refused, "nothing listening"))
        let client = makeClient(device, timeout: .seconds(5), clock: clock)
        let error = await sendError(client, "x")
        XCTAssertEqual(error?.transportError, SMPTransportError(.refused, "nothing listening"))
        let later = await thrownError { () async throws(SMPError) in try await client.send(OSEcho("y")) }
        XCTAssertEqual(later?.transportError?.kind, .refused)
        await client.close()
    }

    func testClosingTwiceIsHarmless() async {
        let device = MockDevice()
        let client = makeClient(device)
        await client.close()
        await client.close()
        let error = await thrownError { () async throws(SMPError) in try await client.send(OSEcho("x")) }
        XCTAssertEqual(error?.transportError?.kind, .closed)
    }
}
