import SMPSimulator
import XCTest

/// A virtual device served on a pseudo-terminal for one test.
struct ServedSerialDevice: Sendable {
    let device: VirtualDevice
    let server: PTYSimulatorServer
    /// The slave's path, e.g. `/dev/pts/7`.
    let path: String

    /// The connection string that reaches it, with `query` (e.g. `baud=1000000`) appended.
    func endpoint(_ query: String = "") -> String {
        "serial:\(path)" + (query.isEmpty ? "" : "?\(query)")
    }
}

extension XCTestCase {
    /// Starts a virtual device on a pseudo-terminal; it stops when the test ends.
    func startSerialDevice(
        _ configuration: VirtualDeviceConfiguration, faults: FaultInjection = .none, options: PTYSimulatorOptions = PTYSimulatorOptions()
    ) async throws -> ServedSerialDevice {
        let device = VirtualDevice(configuration: configuration, faultInjection: faults)
        let server = PTYSimulatorServer(device: device, options: options)
        let path = try await server.start()
        addTeardownBlock { await server.stop() }
        return ServedSerialDevice(device: device, server: server, path: path)
    }
}
