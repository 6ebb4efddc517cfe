import Foundation
import SMPTestSupport

/// A device the conformance scenarios run against: a real firmware fixture (native_sim, QEMU,
/// possibly behind ser2net or socat) or our virtual device configured like one.
protocol ConformanceDevice: AnyObject, Sendable {
    /// What the device is and offers (from the fixture manifest).
    var fixture: ZephyrFixture { get }
    /// Whether it is our virtual device rather than real firmware.
    var isVirtual: Bool { get }
    /// The connection string smpctl reaches it with now (a native_sim pty changes on restart).
    var connection: String { get }
    /// Brings the device back after an `os reset` was answered (restarts a native_sim program).
    func recoverFromReset() async throws
    /// Kills the device at once, as a power loss does, and starts it again (a native_sim program
    /// with the same flash; the virtual device afresh, its RAM and files gone).
    func powerCycle() async throws
    /// The logs of every process behind the device, for a failing test.
    var logs: String { get }
    /// Ends every process behind the device and removes its temporary folder (flash, logs).
    func stop()
}

/// How a test class reaches a fixture.
enum FixtureRoute: Sendable {
    /// Directly: the pty of a native_sim serial fixture, the UDP port, QEMU's TCP UART.
    case direct
    /// A native_sim serial fixture exposed through the real ser2net as a raw TCP port.
    case ser2net
    /// QEMU's TCP UART turned into a pty by socat (what works without serial over TCP).
    case socat
}

/// Query of a serial connection string for a fixture's transport (`?framing=raw`, `?framing=shell`).
func framingQuery(_ fixture: ZephyrFixture) -> String {
    switch fixture.transport {
    case "serial_raw": "?framing=raw"
    case "shell": "?framing=shell"
    default: ""
    }
}

/// A native_sim fixture, reached on its pty or UDP port, or through ser2net.
final class NativeSimConformanceDevice: ConformanceDevice, @unchecked Sendable {
    let device: NativeSimDevice
    private let route: FixtureRoute
    private let lock = NSLock()
    private var bridge: Ser2NetBridge?

    var fixture: ZephyrFixture { device.fixture }
    var isVirtual: Bool { false }

    static func start(_ fixture: ZephyrFixture, in folder: ZephyrFixtureFolder, route: FixtureRoute) async throws -> NativeSimConformanceDevice {
        let started = NativeSimConformanceDevice(device: try await NativeSimDevice.start(fixture, in: folder), route: route)
        do {
            try await started.connectBridge()
        } catch {
            started.stop()
            throw error
        }
        return started
    }

    private init(device: NativeSimDevice, route: FixtureRoute) {
        self.device = device
        self.route = route
    }

    private func connectBridge() async throws {
        guard route == .ser2net else { return }
        guard let pty = device.ptyPath else { throw FixtureProcessFailure(message: "\(fixture.name) has no pty for ser2net", log: device.log) }
        let started = try await Ser2NetBridge.start(exposing: pty, in: device.scratch)
        lock.withLock { bridge = started }
    }

    var connection: String {
        if fixture.transport == "udp" { return fixture.ipFamily == "ipv6" ? "udp:[::1]" : "udp:127.0.0.1" }
        if let bridge = lock.withLock({ bridge }) { return bridge.connection + framingQuery(fixture) }
        return "serial:\(device.ptyPath ?? "/dev/null")" + framingQuery(fixture)
    }

    func recoverFromReset() async throws {
        // A reset ends a native_sim program, as a reboot ends a simulated board.
        let ended = await waitUntilEnded(timeout: 5)
        lock.withLock { bridge }?.stop()
        guard ended else {
            throw FixtureProcessFailure(message: "os reset was answered but \(fixture.name) still runs after 5 s", log: device.log)
        }
        try await device.restart()
        try await connectBridge()
    }

    func powerCycle() async throws {
        lock.withLock { bridge }?.stop()
        device.stop(grace: 0)
        try await device.restart()
        try await connectBridge()
    }

    private func waitUntilEnded(timeout: TimeInterval) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while device.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return !device.isRunning
    }

    var logs: String {
        "--- \(fixture.name) log:\n\(device.log.suffix(4000))" + (lock.withLock { bridge }.map { "\n--- ser2net log:\n\($0.log.suffix(2000))" } ?? "")
    }

    func stop() {
        lock.withLock { bridge }?.stop()
        device.stop()
        try? FileManager.default.removeItem(at: device.scratch)
    }
}

/// A QEMU fixture, reached on its TCP UART directly or through a socat pty.
final class QEMUConformanceDevice: ConformanceDevice, @unchecked Sendable {
    let device: QEMUDevice
    private let bridge: SocatPTYBridge?

    var fixture: ZephyrFixture { device.fixture }
    var isVirtual: Bool { false }

    /// How long the emulated board takes to boot again after a reset (MCUboot, then the app).
    static let rebootTime: Duration = .seconds(3)

    static func start(_ fixture: ZephyrFixture, in folder: ZephyrFixtureFolder, route: FixtureRoute) async throws -> QEMUConformanceDevice {
        let qemu = try await QEMUDevice.start(fixture, in: folder)
        // Let MCUboot hand over to the application before the first request.
        try await Task.sleep(for: rebootTime)
        guard route == .socat else { return QEMUConformanceDevice(device: qemu, bridge: nil) }
        do {
            return QEMUConformanceDevice(device: qemu, bridge: try await SocatPTYBridge.start(towards: qemu.port, in: qemu.scratch))
        } catch {
            qemu.stop()
            throw error
        }
    }

    private init(device: QEMUDevice, bridge: SocatPTYBridge?) {
        self.device = device
        self.bridge = bridge
    }

    var connection: String { (bridge?.connection ?? device.tcpConnection) + framingQuery(fixture) }

    func recoverFromReset() async throws {
        guard device.isRunning else { throw FixtureProcessFailure(message: "QEMU ended after a reset", log: device.log) }
        try await Task.sleep(for: Self.rebootTime)
    }

    func powerCycle() async throws {
        throw FixtureProcessFailure(message: "a QEMU fixture cannot be power-cycled by the conformance harness", log: "")
    }

    var logs: String { "--- QEMU log:\n\(device.log.suffix(4000))" + (bridge.map { "\n--- socat log:\n\($0.log.suffix(2000))" } ?? "") }

    func stop() {
        bridge?.stop()
        device.stop()
        try? FileManager.default.removeItem(at: device.scratch)
    }
}
