import CBOR
import SMP
import SMPSimulator
import SMPTestSupport
import SMPUDP
import XCTest

/// The UDP server: binding, addresses, lifecycle, and survival of any input.
final class UDPSimulatorServerTests: XCTestCase {
    func testPortZeroPicksAFreePortAndReportsIt() async throws {
        let server = UDPSimulatorServer(device: VirtualDevice(), host: "127.0.0.1", port: 0)
        let port = try await server.start()
        XCTAssertGreaterThan(port, 0)
        let reported = await server.port
        XCTAssertEqual(reported, port)
        let address = await server.localAddress
        XCTAssertEqual(address?.ipAddress, "127.0.0.1")
        await server.stop()
        let stopped = await server.port
        XCTAssertNil(stopped)
    }

    func testBindErrorsAreReported() async throws {
        let first = UDPSimulatorServer(device: VirtualDevice(), host: "127.0.0.1", port: 0)
        let port = try await first.start()
        do {
            try await first.start()
            XCTFail("started twice")
        } catch {
            XCTAssertEqual(error.kind, .alreadyStarted)
        }
        let second = UDPSimulatorServer(device: VirtualDevice(), host: "127.0.0.1", port: port)
        do {
            try await second.start()
            XCTFail("bound a port in use")
        } catch {
            XCTAssertEqual(error.kind, .addressInUse, error.message)
        }
        await first.stop()
        for host in ["192.0.2.1", "not an address"] {
            do {
                try await UDPSimulatorServer(device: VirtualDevice(), host: host, port: 0).start()
                XCTFail("bound \(host)")
            } catch {
                XCTAssertEqual(error.kind, .invalidAddress, "\(host): \(error.message)")
            }
        }
        do {
            try await UDPSimulatorServer(device: VirtualDevice(), host: "127.0.0.1", port: 70_000).start()
            XCTFail("bound port 70000")
        } catch {
            XCTAssertEqual(error.kind, .invalidAddress)
        }
    }

    func testServesIPv6() async throws {
        let server = UDPSimulatorServer(device: VirtualDevice(), host: "::1", port: 0)
        let port: Int
        do {
            port = try await server.start()
        } catch {
            try ExternalTool.unavailable("this machine has no IPv6 loopback (::1): \(error)")
        }
        let transport = try await UDPTransport.connect(host: "::1", port: port)
        let client = SMPClient(transport: transport)
        let echo = try await client.send(OSEcho("v6"))
        XCTAssertEqual(echo, "v6")
        await client.close()
        await server.stop()
    }

    func testRandomDatagramsNeverStopTheServer() async throws {
        let device = VirtualDevice(faultInjection: FaultInjection(duplicate: 0.1, delay: 0.1, delayDuration: .milliseconds(5), reorder: 0.1, corrupt: 0.1, seed: 9))
        let server = UDPSimulatorServer(device: device, host: "127.0.0.1", port: 0)
        let port = try await server.start()
        let raw = try await UDPTransport.connect(host: "127.0.0.1", port: port)
        let drain = Task { for try await _ in raw.inbound {} }
        var random = SystemRandomNumberGenerator()
        let valid = [
            SMPMessage(header: SMPHeader(operation: .write, length: 0, group: .os, sequence: 1, command: 0), payload: ["d": "fuzz"]).encoded(),
            SMPMessage(header: SMPHeader(operation: .write, length: 0, group: .os, sequence: 2, command: 4), payload: ["datetime": "2024-01-02T03:04:05.006"]).encoded(),
            SMPMessage(header: SMPHeader(operation: .read, length: 0, group: .os, sequence: 3, command: 7), payload: ["format": "snrvbmpio"]).encoded(),
        ]
        for round in 0..<1500 {
            var datagram: [UInt8]
            switch round % 3 {
            case 0:
                datagram = (0..<Int.random(in: 0...96, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            case 1:
                datagram = valid[round % valid.count]
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    datagram[Int.random(in: 0..<datagram.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            default:
                datagram = (0..<Int.random(in: 1...4, using: &random)).flatMap { _ in valid[Int.random(in: 0..<valid.count, using: &random)] }
                if Bool.random(using: &random) { datagram += [UInt8](repeating: 0xAB, count: Int.random(in: 1...3000, using: &random)) }
            }
            try await raw.send(datagram)
            if round % 100 == 0 { try await Task.sleep(for: .milliseconds(2)) }
        }
        await raw.close()
        drain.cancel()

        let transport = try await UDPTransport.connect(host: "127.0.0.1", port: port)
        let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .milliseconds(500), retries: 10))
        await device.setFaultInjection(.none)
        let echo = try await client.send(OSEcho("still alive"))
        XCTAssertEqual(echo, "still alive")
        let received = await server.receivedDatagrams
        XCTAssertGreaterThan(received, 1000)
        await client.close()
        await server.stop()
    }
}

extension UDPSimulatorServerTests {
    func testRunServesUntilCancelled() async throws {
        let server = UDPSimulatorServer(device: VirtualDevice(), host: "127.0.0.1", port: 0)
        let running = Task { try await server.run() }
        var port: Int?
        for _ in 0..<200 {
            port = await server.port
            if port != nil { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        let bound = try XCTUnwrap(port)
        let endpoint = await server.endpoint
        XCTAssertEqual(endpoint, "udp:127.0.0.1:\(bound)")
        let transport = try await UDPTransport.connect(host: "127.0.0.1", port: bound)
        let client = SMPClient(transport: transport)
        let echo = try await client.send(OSEcho("run"))
        XCTAssertEqual(echo, "run")
        running.cancel()
        try await running.value
        let stopped = await server.port
        XCTAssertNil(stopped)
        await client.close()
    }
}
