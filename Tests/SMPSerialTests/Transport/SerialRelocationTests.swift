import SMP
import SMPSerial
import SMPSimulator
import SMPTestSupport
import XCTest

/// Where the device comes back after it went away, as a relocate function would find it.
private actor Reappearance {
    private var path: String?
    private var waiters: [CheckedContinuation<String, Never>] = []

    func publish(_ path: String) {
        self.path = path
        for waiter in waiters { waiter.resume(returning: path) }
        waiters.removeAll()
    }

    func wait() async -> String {
        if let path { return path }
        return await withCheckedContinuation { waiters.append($0) }
    }
}

private struct DeviceLost: Error, CustomStringConvertible {
    var description: String { "the device did not re-enumerate" }
}

/// A device that resets and comes back (under another path): the same SMPClient carries on.
final class SerialRelocationTests: XCTestCase {
    func testTheSameClientCarriesOnWhereTheDeviceCameBack() async throws {
        let reappearance = Reappearance()
        let link = try await PTYLink.start(
            client: SMPClientConfiguration(timeout: .milliseconds(500), retries: 4), relocate: { await reappearance.wait() })
        let before = try await link.client.send(OSEcho("before"))
        XCTAssertEqual(before, "before")
        await link.server.stop()

        let device = VirtualDevice(configuration: PTYLink.zephyrSerialDevice)
        let second = PTYSimulatorServer(device: device, linkPath: temporaryLinkPath("elsewhere"))
        let secondPath = try await second.start()
        await reappearance.publish(secondPath)

        let after = try await link.client.send(OSEcho("after"))
        XCTAssertEqual(after, "after")
        XCTAssertEqual(link.transport.currentPath, secondPath)
        XCTAssertEqual(link.transport.statistics.reopens, 1)
        let served = await device.statistics.requests
        XCTAssertGreaterThanOrEqual(served, 1)
        await link.client.close()
        await second.stop()
    }

    func testASendDuringTheGapWaitsForTheReopening() async throws {
        let reappearance = Reappearance()
        let link = try await PTYLink.start(
            client: SMPClientConfiguration(timeout: .seconds(3), retries: 0), relocate: { await reappearance.wait() })
        let before = try await link.client.send(OSEcho("before"))
        XCTAssertEqual(before, "before")
        await link.server.stop()
        // Let the transport notice; the request below is then sent while the device is away.
        try await Task.sleep(for: .milliseconds(100))
        let client = link.client
        let request = Task { try await client.send(OSEcho("in the gap")) }
        try await Task.sleep(for: .milliseconds(300))
        let second = PTYSimulatorServer(device: VirtualDevice(configuration: PTYLink.zephyrSerialDevice), linkPath: temporaryLinkPath())
        await reappearance.publish(try await second.start())
        let answer = try await request.value
        XCTAssertEqual(answer, "in the gap", "sent once the device was back, answered without a retry")
        await link.client.close()
        await second.stop()
    }

    func testWhenRelocationFailsTheClientGetsItsError() async throws {
        let link = try await PTYLink.start(
            client: SMPClientConfiguration(timeout: .seconds(10), retries: 0), relocate: { throw DeviceLost() })
        await link.server.stop()
        do {
            _ = try await link.client.send(OSEcho("lost"))
            XCTFail("expected a failure")
        } catch {
            XCTAssertTrue("\(error)".contains("did not re-enumerate"), "\(error)")
        }
        await link.client.close()
    }

    func testADeviceThatDoesNotComeBackInTimeFailsTheLink() async throws {
        let device = VirtualDevice(configuration: PTYLink.zephyrSerialDevice)
        let server = PTYSimulatorServer(device: device, linkPath: temporaryLinkPath())
        let path = try await server.start()
        let transport = try await SerialTransport.open(
            path: path, relocate: { try await Task.sleep(for: .seconds(60)); return path }, relocationTimeout: .milliseconds(300),
            logger: quietLogger)
        // The client's clock never moves: only the link's 300 ms for the device to come back can end the request.
        let client = SMPClient(
            transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(10), retries: 0), clock: ManualClock())
        let here = try await client.send(OSEcho("here"))
        XCTAssertEqual(here, "here")
        await server.stop()
        let gone = Task { try await client.send(OSEcho("gone")) }
        guard case .failure(let error)? = await outcomeWhileTheClockStands(of: gone), let smpError = error as? SMPError,
            case .transport(let failure) = smpError
        else { return XCTFail("expected a transport failure") }
        XCTAssertTrue(failure.message.contains("did not come back"), failure.message)
        await client.close()
    }

    func testClosingWhileTheDeviceIsAwayEndsTheWait() async throws {
        let reappearance = Reappearance()  // never published
        let link = try await PTYLink.start(
            client: SMPClientConfiguration(timeout: .seconds(20), retries: 0), relocate: { await reappearance.wait() })
        await link.server.stop()
        try await Task.sleep(for: .milliseconds(50))
        let transport = link.transport
        let send = Task { () -> SMPTransportError? in
            do {
                try await transport.send([0x02, 0, 0, 0, 0, 0, 0, 0])
                return nil
            } catch {
                return error as? SMPTransportError
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        await link.client.close()
        let error = await send.value
        XCTAssertEqual(error?.kind, .closed)
        XCTAssertEqual(error?.message, "the connection to serial:\(link.path) was closed")
    }
}
