import CBOR
import XCTest
@testable import SMP

final class SMPClientCloseTests: XCTestCase {
    private struct CablePulled: Error {}

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
            do {
                _ = try await task.value
                XCTFail("a pending request succeeded")
                errors.append(nil)
            } catch {
                errors.append((error as? SMPError)?.transportError)
            }
        }
        return errors
    }

    func testClosingFailsEveryPendingRequestAtOnce() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(5))
        let tasks = await pendingRequests(client, device, count: 10)
        var errors: [SMPTransportError?] = []
        let duration = await elapsed {
            await client.close()
            errors = await transportErrors(of: tasks)
        }
        XCTAssertLessThan(duration, .seconds(1), "well under the 5 s timeout")
        XCTAssertEqual(errors.map { $0?.kind }, Array(repeating: .closed, count: 10))
        XCTAssertTrue(errors.first??.message.contains("mock:device") == true)
        let closeCount = await device.closeCount
        XCTAssertEqual(closeCount, 1)
    }

    func testRequestsAfterCloseFailImmediatelyWithoutBeingSent() async throws {
        let device = MockDevice()
        let client = makeClient(device, timeout: .seconds(5))
        _ = try await client.send(OSEcho("before"))
        await client.close()
        var error: SMPError?
        let duration = await elapsed {
            error = await thrownError { () async throws(SMPError) in try await client.send(OSEcho("after")) }
        }
        XCTAssertEqual(error?.transportError?.kind, .closed)
        XCTAssertLessThan(duration, .seconds(1))
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
        let client = makeClient(device, timeout: .seconds(5))
        let tasks = await pendingRequests(client, device, count: 3)
        var errors: [SMPTransportError?] = []
        let duration = await elapsed {
            await device.disconnect()
            errors = await transportErrors(of: tasks)
        }
        XCTAssertLessThan(duration, .seconds(1))
        XCTAssertEqual(errors.map { $0?.kind }, [.closed, .closed, .closed])
        let later = await thrownError { () async throws(SMPError) in try await client.send(OSEcho("x")) }
        XCTAssertEqual(later?.transportError?.kind, .closed)
        await client.close()
    }

    func testALinkFailureIsReportedWithItsOwnError() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(5))
        let tasks = await pendingRequests(client, device, count: 2)
        await device.disconnect(throwing: SMPTransportError(.io, "cable pulled"))
        let errors = await transportErrors(of: tasks)
        XCTAssertEqual(errors, [SMPTransportError(.io, "cable pulled"), SMPTransportError(.io, "cable pulled")])
        await client.close()
    }

    func testAForeignLinkErrorBecomesAnIOError() async throws {
        let device = MockDevice { _, _ in .hold }
        let client = makeClient(device, timeout: .seconds(5))
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
        let client = makeClient(device, timeout: .seconds(5))
        var error: SMPError?
        let duration = await elapsed {
            error = await thrownError { () async throws(SMPError) in try await client.send(OSEcho("x")) }
        }
        XCTAssertLessThan(duration, .seconds(1))
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
