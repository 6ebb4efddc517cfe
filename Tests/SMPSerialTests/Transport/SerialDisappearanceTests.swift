import SMP
import SMPSerial
import SMPSimulator
import SMPTestSupport
import XCTest

/// The device going away mid-transfer: pending requests fail at once with a clear error, not
/// after their timeouts.
final class SerialDisappearanceTests: XCTestCase {
    func testPendingRequestsFailAtOnceWhenTheDeviceDisappears() async throws {
        let silent = ScriptedSerialDevice()  // never answers
        let server = PTYSimulatorServer(handler: silent, linkPath: temporaryLinkPath())
        let path = try await server.start()
        let transport = try await SerialTransport.open(path: path)
        // The client's clock never moves: only the device's disappearance can end the requests.
        let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(20), retries: 0), clock: ManualClock())
        let pending = (0..<3).map { index in
            Task { () -> SMPError? in
                do throws(SMPError) {
                    _ = try await client.send(OSEcho("pending \(index)"))
                    return nil
                } catch {
                    return error
                }
            }
        }
        await waitUntil { await silent.received.count == 3 }
        await server.stop()
        for task in pending {
            let outcome = await outcomeWhileTheClockStands(of: task)
            guard case .success(let error)? = outcome, case .transport(let failure)? = error else { return XCTFail("\(String(describing: outcome))") }
            XCTAssertEqual(failure.kind, .closed)
            XCTAssertTrue(failure.message.contains("the device disappeared"), failure.message)
            XCTAssertTrue(failure.message.contains(path), failure.message)
            XCTAssertNotNil(failure.hint)
        }

        do {
            _ = try await client.send(OSEcho("after"))
            XCTFail("expected the link to stay failed")
        } catch {
            guard case .transport(let failure) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(failure.message.contains("disappeared"), failure.message)
        }
        await client.close()
    }

    func testSendingAfterTheDeviceDisappearedThrowsTheSameError() async throws {
        let server = PTYSimulatorServer(device: VirtualDevice(), linkPath: temporaryLinkPath())
        let path = try await server.start()
        let transport = try await SerialTransport.open(path: path)
        await server.stop()
        var iterator = transport.inbound.makeAsyncIterator()
        do {
            _ = try await iterator.next()
            XCTFail("expected the inbound stream to fail")
        } catch let error as SMPTransportError {
            XCTAssertTrue(error.message.contains("disappeared"), error.message)
        }
        do {
            try await transport.send([0x02, 0, 0, 0, 0, 0, 0, 0])
            XCTFail("expected send to fail")
        } catch let error as SMPTransportError {
            XCTAssertEqual(error.kind, .closed)
            XCTAssertTrue(error.message.contains("disappeared"), error.message)
        }
        await transport.close()
    }

    func testClosingFinishesTheStreamAndReleasesThePort() async throws {
        let server = PTYSimulatorServer(device: VirtualDevice(), linkPath: temporaryLinkPath())
        let path = try await server.start()
        let transport = try await SerialTransport.open(path: path)
        await transport.close()
        await transport.close()  // idempotent
        var iterator = transport.inbound.makeAsyncIterator()
        let next = try await iterator.next()
        XCTAssertNil(next, "the stream finishes without an error")
        do {
            try await transport.send([0x02, 0, 0, 0, 0, 0, 0, 0])
            XCTFail("expected send to fail")
        } catch let error as SMPTransportError {
            XCTAssertEqual(error.kind, .closed)
        }
        // The simulator serves the master through SwiftNIO, which stops the process when the host
        // hangs up and opens the port again before the hang-up is read; give it the moment a
        // device gets between two openings.
        try await Task.sleep(for: .milliseconds(200))
        let again = try await SerialTransport.open(path: path)
        await again.close()
        await server.stop()
    }
}
