#if canImport(Glibc)
import Glibc
#endif
import SMP
import SMPSimulator
@testable import SMPUDP
import Synchronization
import XCTest

/// Timeouts, retries, refused and unknown endpoints, closing with requests pending.
final class UDPLinkFailureTests: XCTestCase {
    func testSilentDeviceTimesOutAndOnlyRetrySafeRequestsAreRetried() async throws {
        let device = ScriptedDevice()
        let (server, client) = try await device.start(client: SMPClientConfiguration(timeout: .milliseconds(200), retries: 2))

        let echoTime = await elapsed {
            do throws(SMPError) {
                _ = try await client.send(OSEcho("anyone?"))
                XCTFail("expected a timeout")
            } catch {
                guard case .timeout(_, _, let attempts, _, _) = error else { return XCTFail("expected a timeout, got \(error)") }
                XCTAssertEqual(attempts, 3)
            }
        }
        XCTAssertGreaterThanOrEqual(echoTime, Duration.milliseconds(590))
        XCTAssertLessThan(echoTime, Duration.milliseconds(2_500))
        let afterEcho = await device.received.count
        XCTAssertEqual(afterEcho, 3)

        let resetTime = await elapsed {
            do throws(SMPError) {
                try await client.send(OSReset())
                XCTFail("expected a timeout")
            } catch {
                guard case .timeout(_, _, let attempts, _, _) = error else { return XCTFail("expected a timeout, got \(error)") }
                XCTAssertEqual(attempts, 1)
            }
        }
        XCTAssertGreaterThanOrEqual(resetTime, Duration.milliseconds(190))
        XCTAssertLessThan(resetTime, Duration.milliseconds(1_500))
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
        let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(5)))
        let duration = await elapsed {
            do throws(SMPError) {
                _ = try await client.send(OSEcho("hello?"))
                XCTFail("expected the link to be refused")
            } catch {
                guard case .transport(let failure) = error else { return XCTFail("expected a transport error, got \(error)") }
                XCTAssertEqual(failure.kind, .refused)
            }
        }
        XCTAssertLessThan(duration, Duration.milliseconds(500))
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
        let (server, client) = try await device.start(client: SMPClientConfiguration(timeout: .seconds(10)))
        let requests = (0..<3).map { index in Task { try await client.send(OSEcho("wait \(index)")) } }
        for _ in 0..<200 where await device.received.count < 3 { try await Task.sleep(for: .milliseconds(10)) }
        let duration = await elapsed {
            await client.close()
            for request in requests {
                let result = await request.result
                guard case .failure(let error) = result, case .transport(let failure)? = error as? SMPError else {
                    return XCTFail("expected a transport error, got \(result)")
                }
                XCTAssertEqual(failure.kind, .closed)
            }
        }
        XCTAssertLessThan(duration, Duration.milliseconds(500))
        do throws(SMPError) {
            _ = try await client.send(OSEcho("after close"))
            XCTFail("a closed client must not send")
        } catch {
            guard case .transport = error else { return XCTFail("expected a transport error, got \(error)") }
        }
        await server.stop()
    }
}
