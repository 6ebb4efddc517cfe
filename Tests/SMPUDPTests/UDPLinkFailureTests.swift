#if canImport(Glibc)
import Glibc
#endif
import SMP
import SMPSimulator
@testable import SMPUDP
import SMPTestSupport
import Synchronization
import XCTest

/// Timeouts, retries, refused and unknown endpoints, closing with requests pending.
final class UDPLinkFailureTests: XCTestCase {
    func testSilentDeviceTimesOutAndOnlyRetrySafeRequestsAreRetried() async throws {
        let device = ScriptedDevice()
        let clock = ManualClock()
        let (server, client) = try await device.start(client: SMPClientConfiguration(timeout: .milliseconds(200), retries: 2), clock: clock)

        // Three attempts, each given 200 ms on the client's clock from when the link took it.
        let echo = Task { try await client.send(OSEcho("anyone?")) }
        for deadline in [200, 400, 600] {
            try await clock.sleeper(at: .milliseconds(deadline))
            clock.advance(to: .milliseconds(deadline))
        }
        guard case .failure(let echoFailure)? = await outcomeWhileTheClockStands(of: echo), let echoError = echoFailure as? SMPError,
            case .timeout(_, _, let echoAttempts, _, let echoElapsed) = echoError
        else { return XCTFail("expected the echo to time out") }
        XCTAssertEqual(echoAttempts, 3)
        XCTAssertEqual(echoElapsed, .milliseconds(600))
        let afterEcho = await device.received.count
        XCTAssertEqual(afterEcho, 3)

        let reset = Task { try await client.send(OSReset()) }
        try await clock.sleeper(at: .milliseconds(800))
        clock.advance(to: .milliseconds(800))
        guard case .failure(let resetFailure)? = await outcomeWhileTheClockStands(of: reset), let resetError = resetFailure as? SMPError,
            case .timeout(_, _, let resetAttempts, _, _) = resetError
        else { return XCTFail("expected the reset to time out") }
        XCTAssertEqual(resetAttempts, 1)
        try await Task.sleep(for: .milliseconds(500))
        let afterReset = await device.received
        XCTAssertEqual(afterReset.count, 4, "a reset must be sent exactly once")
        XCTAssertEqual(afterReset.last.map { try? SMPMessage(decoding: $0).header.command }, OSCommandID.reset)

        let statistics = await client.statistics
        XCTAssertEqual(statistics.timeouts, 2)
        XCTAssertEqual(statistics.retransmissions, 2)
        await client.close()
        await server.stop()
    }

    func testClosedPortIsRefusedQuickly() async throws {
        let probe = UDPSimulatorServer(device: VirtualDevice(), host: "127.0.0.1", port: 0)
        let port = try await probe.start()
        await probe.stop()
        let transport = try await UDPTransport.connect(host: "127.0.0.1", port: port)
        // The client's clock never moves: only the ICMP port-unreachable answer can end the request.
        let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(5)), clock: ManualClock())
        let echo = Task { try await client.send(OSEcho("hello?")) }
        guard case .failure(let error)? = await outcomeWhileTheClockStands(of: echo), let smpError = error as? SMPError,
            case .transport(let failure) = smpError
        else {
            return XCTFail("expected the link to be refused")
        }
        XCTAssertEqual(failure.kind, .refused)
        await client.close()
    }

    func testUnresolvableHostIsNotFound() async {
        // A resolver that answers as getaddrinfo does for an unknown name, so no DNS query leaves.
        let asked = Mutex<[String]>([])
        let unknownName: UDPSocket.AddressLookup = { host, _, _, _ in
            asked.withLock { $0.append(host) }
            return EAI_NONAME
        }
        do throws(SMPTransportError) {
            _ = try await UDPSocket.open(host: "no-such-device.invalid", port: 1337, mtu: UDPTransport.defaultMTU, lookup: unknownName)
            XCTFail("expected the host not to resolve")
        } catch {
            XCTAssertEqual(error.kind, .notFound)
            XCTAssertEqual(error.message, "udp:no-such-device.invalid:1337: cannot resolve host \"no-such-device.invalid\"")
            XCTAssertNotNil(error.hint)
        }
        XCTAssertEqual(asked.withLock { $0 }, ["no-such-device.invalid"])
    }

    func testPendingRequestsFailAtOnceWhenTheTransportCloses() async throws {
        let device = ScriptedDevice()
        // The client's clock never moves: only the close can end the requests.
        let (server, client) = try await device.start(client: SMPClientConfiguration(timeout: .seconds(10)), clock: ManualClock())
        let requests = (0..<3).map { index in Task { try await client.send(OSEcho("wait \(index)")) } }
        for _ in 0..<200 where await device.received.count < 3 { try await Task.sleep(for: .milliseconds(10)) }
        await client.close()
        for request in requests {
            let result = await outcomeWhileTheClockStands(of: request)
            guard case .failure(let error)? = result, let smpError = error as? SMPError, case .transport(let failure) = smpError else {
                return XCTFail("expected a transport error, got \(String(describing: result))")
            }
            XCTAssertEqual(failure.kind, .closed)
        }
        do throws(SMPError) {
            _ = try await client.send(OSEcho("after close"))
            XCTFail("a closed client must not send")
        } catch {
            guard case .transport = error else { return XCTFail("expected a transport error, got \(error)") }
        }
        await server.stop()
    }
}
