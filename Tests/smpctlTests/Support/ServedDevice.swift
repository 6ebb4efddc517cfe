import SMP
import SMPSimulator
import XCTest

/// A virtual device served over UDP on 127.0.0.1 (a free port) for one test.
struct ServedDevice: Sendable {
    let device: VirtualDevice
    let server: UDPSimulatorServer
    /// The connection string that reaches it, e.g. `udp:127.0.0.1:40123`.
    let endpoint: String

    /// The clock time the test devices start with unless a test says otherwise.
    static let initialTime = SMPDateTime(year: 2024, month: 5, day: 1, hour: 12, minute: 30, second: 0, millisecond: 0)

    /// Requests the device has read so far.
    var requests: Int {
        get async { await device.statistics.requests }
    }

    /// Datagrams (frames) the device has received so far.
    var frames: Int {
        get async { await device.statistics.frames }
    }

    /// The device's OS group, for its clock and console echo state.
    var osGroup: OSGroup? {
        get async { await device.group(.os) as? OSGroup }
    }

    /// The resets performed so far, in order.
    func resets() async -> [SimulatedReset] {
        let count = await device.resetCount
        var events: [SimulatedReset] = []
        var iterator = device.resets.makeAsyncIterator()
        while events.count < count, let event = await iterator.next() { events.append(event) }
        return events
    }
}

extension VirtualDeviceConfiguration {
    /// The default Zephyr-like device with its clock set to ``ServedDevice/initialTime``.
    static var zephyrForTests: VirtualDeviceConfiguration {
        VirtualDeviceConfiguration(initialDateTime: ServedDevice.initialTime)
    }

    /// The Mynewt-like device (legacy protocol, memory pools, console echo) with its clock set.
    static var mynewtForTests: VirtualDeviceConfiguration {
        var configuration = VirtualDeviceConfiguration.mynewtLike
        configuration.initialDateTime = ServedDevice.initialTime
        return configuration
    }
}

extension XCTestCase {
    /// Starts a virtual device on 127.0.0.1, port 0, with further `groups` (one with the OS
    /// group's ID replaces it); it stops when the test ends.
    func startDevice(
        _ configuration: VirtualDeviceConfiguration = .zephyrForTests, faults: FaultInjection = .none,
        groups: [any SimulatedGroup] = [], uptime: (@Sendable () -> Duration)? = nil, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> ServedDevice {
        let device = VirtualDevice(configuration: configuration, faultInjection: faults, groups: groups, uptime: uptime)
        let server = UDPSimulatorServer(device: device, host: "127.0.0.1", port: 0)
        try await server.start()
        addTeardownBlock { await server.stop() }
        let reported = await server.endpoint
        let endpoint = try XCTUnwrap(reported, "the server reports no endpoint", file: file, line: line)
        return ServedDevice(device: device, server: server, endpoint: endpoint)
    }
}
