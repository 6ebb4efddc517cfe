import SMP
import SMPFleet
import SMPKit
import SMPSimulator
import Synchronization
import XCTest

/// Virtual devices, each served over UDP on 127.0.0.1 (a free port), with a target each.
struct SimulatedFleet {
    let devices: [VirtualDevice]
    let targets: [DeviceTarget]
}

extension XCTestCase {
    /// Starts one virtual device per configuration (with the fault injection of the same index,
    /// none when absent), named `sim-1`…; the servers stop when the test ends. `options` is
    /// appended to each connection string (e.g. `?timeout=0.2`).
    func startFleet(
        _ configurations: [VirtualDeviceConfiguration], faults: [Int: FaultInjection] = [:], options: String = ""
    ) async throws -> SimulatedFleet {
        var devices: [VirtualDevice] = []
        var targets: [DeviceTarget] = []
        for (index, configuration) in configurations.enumerated() {
            let device = VirtualDevice(configuration: configuration, faultInjection: faults[index] ?? .none)
            let server = UDPSimulatorServer(device: device, host: "127.0.0.1", port: 0)
            try await server.start()
            addTeardownBlock { await server.stop() }
            let reported = await server.endpoint
            let endpoint = try XCTUnwrap(reported, "the server reports no endpoint")
            devices.append(device)
            targets.append(DeviceTarget(name: "sim-\(index + 1)", connection: try ConnectionString(parsing: endpoint + options)))
        }
        return SimulatedFleet(devices: devices, targets: targets)
    }
}

/// The failure the tests' runs give every error: its description.
@Sendable func describedFailure(_ error: any Error) -> DeviceFailure {
    DeviceFailure(code: 1, name: "error", message: "\(error)")
}

/// Collects a run's events, from any thread.
final class EventLog: Sendable {
    private let events = Mutex<[FleetEvent]>([])

    /// Receives one event.
    @Sendable func record(_ event: FleetEvent) {
        events.withLock { $0.append(event) }
    }

    /// The events so far.
    var all: [FleetEvent] { events.withLock { $0 } }

    /// The indexes of the devices in the order they finished.
    var finishOrder: [Int] {
        all.compactMap { event in
            if case .finished(let record) = event { return record.index }
            return nil
        }
    }

    /// How many devices have started so far.
    var started: Int {
        all.filter { event in
            if case .started = event { return true }
            return false
        }.count
    }
}
