import Foundation
import XCTest

/// BlueZoo — Samsung's mock of BlueZ's D-Bus API (PyPI `bluezoo`, GPL-2.0-only), written by others
/// and run by the tests as a separate program, never linked into or shipped with smpctl — on a
/// private D-Bus "system" bus, with a Zephyr-like SMP peripheral on its second adapter.
///
/// ``start(smpPort:name:peripheralArguments:file:line:)`` starts `dbus-daemon` with
/// `Tests/Fixtures/bluez/private-system-bus.conf`, BlueZoo with two powered adapters (`hci0`
/// ``centralAddress`` for the client under test, `hci1` ``peripheralAddress`` for the device) through
/// `Tests/Fixtures/bluezoo/run_bluezoo.py`, and `Tests/Fixtures/bluezoo/smp_peripheral.py`: a GATT
/// application with the SMP service and an advertisement on `hci1`, relaying SMP to a UDP server on
/// `smpPort`. A client connects to ``busAddress``. docs/ble-testing.md describes it.
///
/// Missing `dbus-daemon`, python3-dbus/python3-gi or `bluezoo` in the tests' Python skip the test
/// locally and fail it in CI (``ExternalTool/unavailable(_:)``).
public final class BlueZoo: Sendable {
    /// The address of the adapter a client uses (`hci0`).
    public static let centralAddress = "00:00:00:11:11:11"
    /// The address the SMP peripheral advertises under (`hci1`).
    public static let peripheralAddress = "00:00:00:22:22:22"
    /// The private bus's address, to use as the system bus.
    public let busAddress: String
    private let bus: BlueZMockProcess
    private let zoo: BlueZMockProcess
    private let peripheral: BlueZMockProcess

    private init(busAddress: String, bus: BlueZMockProcess, zoo: BlueZMockProcess, peripheral: BlueZMockProcess) {
        self.busAddress = busAddress
        self.bus = bus
        self.zoo = zoo
        self.peripheral = peripheral
    }

    /// Starts the bus, BlueZoo and the peripheral advertising `name`, with `peripheralArguments`
    /// (smp_peripheral.py's `--mtu N`, `--reboot-time S`), and waits until the peripheral is
    /// registered (it prints READY).
    ///
    /// - Throws: ``BlueZMockError`` with BlueZoo's and the peripheral's standard error when they do
    ///   not come up within 20 s; `XCTSkip` (locally) or ``RequiredToolMissing`` (CI) when a
    ///   prerequisite is missing.
    public static func start(
        smpPort: Int, name: String = "Zephyr", peripheralArguments: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> BlueZoo {
        try BlueZMock.requirePrerequisites(file: file, line: line)
        try ExternalTool.requirePythonModules(["bluezoo"])
        let bus = try BlueZMockProcess(
            name: "dbus-daemon", executable: try BlueZMock.daemonPath(file: file, line: line),
            arguments: ["--config-file=\(BlueZMock.fixture("private-system-bus.conf"))", "--nofork", "--print-address=1"])
        guard let address = await bus.firstLine(timeout: BlueZMock.startTimeout), address.hasPrefix("unix:") else {
            bus.stop()
            throw BlueZMockError("dbus-daemon printed no bus address within \(BlueZMock.startTimeout); its stderr: \(bus.stderr)")
        }
        let environment = ["DBUS_SYSTEM_BUS_ADDRESS": address, "PYTHONUNBUFFERED": "1"]
        let zoo = try BlueZMockProcess(
            name: "bluezoo", executable: ExternalTool.python,
            arguments: [
                fixture("run_bluezoo.py"), "--auto-enable", "--scan-interval", "1",
                "--adapter", centralAddress, "--adapter", peripheralAddress,
            ],
            environment: environment)
        let peripheral = try BlueZMockProcess(
            name: "smp_peripheral.py", executable: BlueZMock.python,
            arguments: [fixture("smp_peripheral.py"), "--udp-port", String(smpPort), "--name", name] + peripheralArguments,
            environment: environment)
        guard await peripheral.firstLine(timeout: .seconds(20)) == "READY" else {
            peripheral.stop()
            zoo.stop()
            bus.stop()
            throw BlueZMockError(
                "BlueZoo with smp_peripheral.py did not come up within 20 s; bluezoo's stderr: \(zoo.stderr)\n"
                    + "smp_peripheral.py's stderr: \(peripheral.stderr)")
        }
        return BlueZoo(busAddress: address, bus: bus, zoo: zoo, peripheral: peripheral)
    }

    /// What BlueZoo and the peripheral wrote to standard error so far.
    public var log: String { "bluezoo:\n\(zoo.stderr)\nsmp_peripheral.py:\n\(peripheral.stderr)" }

    /// Stops the peripheral, BlueZoo, then the bus. Safe to call more than once.
    public func stop() {
        peripheral.stop()
        zoo.stop()
        bus.stop()
    }

    deinit { stop() }

    /// The absolute path of a file in `Tests/Fixtures/bluezoo`.
    static func fixture(_ name: String) -> String {
        ExternalTool.packageRoot.appendingPathComponent("Tests/Fixtures/bluezoo").appendingPathComponent(name).path
    }
}

extension XCTestCase {
    /// Starts ``BlueZoo`` with its peripheral relaying to the SMP server on UDP `smpPort`; it stops
    /// when the test ends.
    public func startBlueZoo(
        smpPort: Int, name: String = "Zephyr", peripheralArguments: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> BlueZoo {
        let zoo = try await BlueZoo.start(smpPort: smpPort, name: name, peripheralArguments: peripheralArguments, file: file, line: line)
        addTeardownBlock { zoo.stop() }
        return zoo
    }
}
