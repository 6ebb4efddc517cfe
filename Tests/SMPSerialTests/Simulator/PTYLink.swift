import Foundation
import Logging
import SMP
import SMPSerial
import SMPSimulator
import XCTest

/// A virtual device served on a pseudo-terminal, with a serial transport and a client on it.
struct PTYLink {
    let device: VirtualDevice
    let server: PTYSimulatorServer
    let transport: SerialTransport
    let client: SMPClient
    /// The link path the transport opened.
    let path: String

    /// No line pacing: the virtual device takes lines as fast as they come (unless a test gives it
    /// line buffers), and tests of other things should not see the learning traffic.
    static let unpaced = SerialPortOptions(pacing: .unpaced)

    /// A Zephyr device with the serial transport's defaults: 384-byte buffers, 4 of them.
    static let zephyrSerialDevice = VirtualDeviceConfiguration(bufferSize: 384, bufferCount: 4)

    /// Starts a device on a fresh pseudo-terminal linked at a temporary path, opens it and makes a client.
    static func start(
        configuration: VirtualDeviceConfiguration = zephyrSerialDevice, faults: FaultInjection = .none, deviceFaults: [DeviceFault] = [],
        simulator options: PTYSimulatorOptions = PTYSimulatorOptions(), port: SerialPortOptions = unpaced,
        client clientConfiguration: SMPClientConfiguration = SMPClientConfiguration(timeout: .seconds(2)),
        relocate: (@Sendable () async throws -> String)? = nil, pacingLearned: (@Sendable (LinePacing) -> Void)? = nil
    ) async throws -> PTYLink {
        let device = VirtualDevice(configuration: configuration, faultInjection: faults, deviceFaults: deviceFaults)
        let server = PTYSimulatorServer(device: device, linkPath: temporaryLinkPath(), options: options)
        let path = try await server.start()
        let transport = try await SerialTransport.open(path: path, options: port, relocate: relocate, pacingLearned: pacingLearned, logger: quietLogger)
        return PTYLink(
            device: device, server: server, transport: transport,
            client: SMPClient(transport: transport, configuration: clientConfiguration), path: path)
    }

    func stop() async {
        await client.close()
        await server.stop()
    }
}

/// A logger that prints nothing (the transport reports relocation at notice level).
let quietLogger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

/// A path under the temporary directory that does not exist yet, for a link or a file.
func temporaryLinkPath(_ name: String = "tty") -> String {
    let unique = "smpctl-\(getpid())-\(UUID().uuidString.prefix(8))-\(name)"
    return (NSTemporaryDirectory() as NSString).appendingPathComponent(unique)
}

/// A device that answers every request with whatever `respond` returns (nothing, or anything).
actor ScriptedSerialDevice: SimulatedFrameHandler {
    /// Every message received, in order.
    private(set) var received: [[UInt8]] = []
    private let respond: @Sendable (_ request: [UInt8]) -> [[UInt8]]

    init(respond: @escaping @Sendable (_ request: [UInt8]) -> [[UInt8]] = { _ in [] }) {
        self.respond = respond
    }

    func deliveries(for frame: [UInt8]) async -> [SimulatedDelivery] {
        received.append(frame)
        return respond(frame).map { SimulatedDelivery(bytes: $0) }
    }
}

/// Waits until `condition` holds, polling, for at most `timeout`.
func waitUntil(
    timeout: Duration = .seconds(5), _ condition: @Sendable () async -> Bool,
    file: StaticString = #filePath, line: UInt = #line
) async {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return }
        try? await Task.sleep(for: .milliseconds(10))
    }
    XCTFail("condition not met within \(timeout)", file: file, line: line)
}

/// The longest echo text whose request (header included) is at most `limit` bytes.
func largestEchoText(fitting limit: Int) -> String {
    func size(_ length: Int) -> Int {
        let request = OSEcho(String(repeating: "e", count: length)).request
        let header = SMPHeader(
            operation: request.operation, version: .v2, length: 0, group: request.group, sequence: 0, command: request.command)
        return SMPMessage(header: header, payload: request.payload).encoded().count
    }
    var length = limit
    while length > 0 && size(length) > limit { length -= 1 }
    return String(repeating: "e", count: length)
}
