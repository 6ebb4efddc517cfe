import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import SMPUDP
import XCTest

/// A virtual device served on a free loopback port, with a client connected to it.
struct SimulatorLink {
    let device: VirtualDevice
    let server: UDPSimulatorServer
    let client: SMPClient

    /// Starts a device on `host` (port 0) and connects a client to it.
    static func start(
        host: String = "127.0.0.1", configuration: VirtualDeviceConfiguration = VirtualDeviceConfiguration(),
        faults: FaultInjection = .none, client clientConfiguration: SMPClientConfiguration = SMPClientConfiguration(timeout: .seconds(2))
    ) async throws -> SimulatorLink {
        let device = VirtualDevice(configuration: configuration, faultInjection: faults)
        let server = UDPSimulatorServer(device: device, host: host, port: 0)
        let port = try await server.start()
        let transport = try await UDPTransport.connect(host: host, port: port)
        return SimulatorLink(device: device, server: server, client: SMPClient(transport: transport, configuration: clientConfiguration))
    }

    func stop() async {
        await client.close()
        await server.stop()
    }
}

/// A hand-written device: records every datagram and answers with whatever `respond` returns
/// (nothing, or malformed messages).
actor ScriptedDevice: SimulatedFrameHandler {
    /// Every datagram received, in order.
    private(set) var received: [[UInt8]] = []
    private let respond: @Sendable (_ request: [UInt8], _ index: Int) -> [[UInt8]]

    init(respond: @escaping @Sendable (_ request: [UInt8], _ index: Int) -> [[UInt8]] = { _, _ in [] }) {
        self.respond = respond
    }

    func deliveries(for frame: [UInt8]) async -> [SimulatedDelivery] {
        received.append(frame)
        return respond(frame, received.count - 1).map { SimulatedDelivery(bytes: $0) }
    }

    /// Serves this device on a free loopback port and connects a client to it.
    func start(
        client configuration: SMPClientConfiguration, clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> (UDPSimulatorServer, SMPClient) {
        let server = UDPSimulatorServer(handler: self, host: "127.0.0.1", port: 0)
        let port = try await server.start()
        let transport = try await UDPTransport.connect(host: "127.0.0.1", port: port)
        return (server, SMPClient(transport: transport, configuration: configuration, clock: clock))
    }

    /// The correct Zephyr-style answer to an echo request: `{"r": d}`, same header, response operation.
    static func echoAnswer(to request: [UInt8]) -> [UInt8] {
        guard var message = try? SMPMessage(decoding: request) else { return [] }
        message.header.operation = message.header.operation.response
        message.payload["r"] = message.payload["d"]
        message.payload["d"] = nil
        return message.encoded(indefiniteContainers: true)
    }
}

/// Checks that `::1` can be used; locally skips when it cannot, in CI fails.
func requireIPv6Loopback() async throws {
    let probe = UDPSimulatorServer(device: VirtualDevice(), host: "::1", port: 0)
    do {
        try await probe.start()
        await probe.stop()
    } catch {
        try ExternalTool.unavailable("this machine has no IPv6 loopback (::1): \(error)")
    }
}

extension XCTestCase {
    /// Runs `upload` (given a progress callback) in a task that cancels itself once half of
    /// `length` bytes are acknowledged, and checks that it ends with a `CancellationError`.
    func cancelHalfway(
        of length: Int, file: StaticString = #filePath, line: UInt = #line,
        _ upload: @escaping @Sendable (@escaping @Sendable (UploadProgress) -> Void) async throws -> UploadResult
    ) async {
        let half = UInt64(length / 2)
        let cancelled = Task {
            try await upload { progress in
                if progress.acknowledged >= half { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        do {
            _ = try await cancelled.value
            XCTFail("expected a cancellation", file: file, line: line)
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)", file: file, line: line)
        }
    }
}
