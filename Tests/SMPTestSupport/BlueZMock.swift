import Foundation
import XCTest

/// A mock of bluetoothd 5.66 (`Tests/Fixtures/bluez/mock_bluez.py`) on a private D-Bus "system" bus.
///
/// ``start(arguments:file:line:)`` starts `dbus-daemon` with `Tests/Fixtures/bluez/private-system-bus.conf`
/// and the mock with `DBUS_SYSTEM_BUS_ADDRESS` set to it; a BlueZ client under test connects to
/// ``busAddress``. The mock's devices talk SMP to virtual devices over UDP (`--smp-port PORT` or
/// `--device ADDRESS,NAME,PORT`), or Nordic DFU to a `NordicDFUDatagramServer`
/// (`--dfu-device ADDRESS,NAME,PORT,KIND`); docs/ble-testing.md lists every option and hook.
///
/// Missing `dbus-daemon` or Debian's python3-dbus/python3-gi skip the test locally and fail it in CI
/// (``ExternalTool/unavailable(_:)``).
public final class BlueZMock: Sendable {
    /// The private bus's address (`unix:path=/tmp/dbus-…,guid=…`), to use as the system bus.
    public let busAddress: String
    private let bus: BlueZMockProcess
    private let mock: BlueZMockProcess

    /// How long the bus and the mock may take to come up.
    static let startTimeout: Duration = .seconds(10)
    /// The Python that has python3-dbus and python3-gi (Debian's, not a venv's).
    static let python = "/usr/bin/python3"

    private init(busAddress: String, bus: BlueZMockProcess, mock: BlueZMockProcess) {
        self.busAddress = busAddress
        self.bus = bus
        self.mock = mock
    }

    /// Starts a private bus and the mock with `arguments` (mock_bluez.py's options) and waits until
    /// the mock owns `org.bluez` (it prints READY).
    ///
    /// - Throws: ``BlueZMockError`` with the mock's standard error when it does not come up within
    ///   10 s; `XCTSkip` (locally) or ``RequiredToolMissing`` (CI) when a prerequisite is missing.
    public static func start(
        arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line
    ) async throws -> BlueZMock {
        try requirePrerequisites(file: file, line: line)
        let bus = try BlueZMockProcess(
            name: "dbus-daemon", executable: try daemonPath(file: file, line: line),
            arguments: ["--config-file=\(fixture("private-system-bus.conf"))", "--nofork", "--print-address=1"])
        guard let address = await bus.firstLine(timeout: startTimeout), address.hasPrefix("unix:") else {
            bus.stop()
            throw BlueZMockError("dbus-daemon printed no bus address within \(startTimeout); its stderr: \(bus.stderr)")
        }
        let mock = try BlueZMockProcess(
            name: "mock_bluez.py", executable: python, arguments: [fixture("mock_bluez.py")] + arguments,
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": address, "PYTHONUNBUFFERED": "1"])
        guard await mock.firstLine(timeout: startTimeout) == "READY" else {
            mock.stop()
            bus.stop()
            throw BlueZMockError(
                "mock_bluez.py \(arguments.joined(separator: " ")) did not print READY within \(startTimeout); "
                    + "its stderr: \(mock.stderr)")
        }
        return BlueZMock(busAddress: address, bus: bus, mock: mock)
    }

    /// What the mock wrote to standard error so far (its warnings, e.g. an unreachable SMP device).
    public var log: String { mock.stderr }

    /// Stops the mock, then the bus. Safe to call more than once.
    public func stop() {
        mock.stop()
        bus.stop()
    }

    /// Calls a test hook of `org.bluez.mock.Control1` on `/org/bluez/mock` with text arguments:
    /// `FailNext METHOD ERROR_SUFFIX MESSAGE`, `DropLink`, `SetMTU N`, `SetResponder bridge|silent`,
    /// `Notify HEX`, `GetStats`. Returns what the hook printed.
    ///
    /// - Throws: ``BlueZMockError`` when the hook fails or the arguments don't fit it.
    @discardableResult
    public func control(_ method: String, _ arguments: [String] = []) throws -> String {
        let result = try ProcessRunner.run(
            Self.python, [Self.fixture("control.py"), busAddress, method] + arguments, timeout: 20)
        guard result.status == 0, !result.timedOut else {
            throw BlueZMockError(
                "Control1.\(method)(\(arguments.joined(separator: ", "))) failed (status \(result.status)"
                    + "\(result.timedOut ? ", timed out" : "")): \(result.stderr)")
        }
        return result.stdout
    }

    /// The mock's counters (`GetStats`): writes_value, writes_acquired, bytes_written, notifications,
    /// notification_bytes, notifications_dropped, oversize_drops, unpaired_drops, smp_requests,
    /// smp_responses, requests_unanswered, answers_dropped, backend_errors, connects,
    /// connect_failures, disconnects, resets, dfu_events, dfu_commands, pairings, agent_calls, and
    /// `writes:<characteristic path>`.
    public func stats() throws -> [String: Int] {
        var counters: [String: Int] = [:]
        for line in try control("GetStats").split(separator: "\n") {
            guard let equals = line.lastIndex(of: "="), let value = Int(line[line.index(after: equals)...]) else {
                throw BlueZMockError("GetStats printed an unexpected line: \(line)")
            }
            counters[String(line[..<equals])] = value
        }
        return counters
    }

    deinit { stop() }

    /// The absolute path of a file in `Tests/Fixtures/bluez`.
    static func fixture(_ name: String) -> String {
        ExternalTool.packageRoot.appendingPathComponent("Tests/Fixtures/bluez").appendingPathComponent(name).path
    }

    /// The path of `dbus-daemon`; skips (locally) or fails (in CI) when it is not installed.
    static func daemonPath(file: StaticString, line: UInt) throws -> String {
        let candidates = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon"]
        if let path = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) { return path }
        try ExternalTool.unavailable("dbus-daemon is not installed (apt-get install dbus)")
    }

    /// Skips (locally) or fails (in CI) unless `dbus-daemon` and Debian's python3-dbus/python3-gi are there.
    static func requirePrerequisites(file: StaticString, line: UInt) throws {
        _ = try daemonPath(file: file, line: line)
        guard FileManager.default.isExecutableFile(atPath: python) else {
            try ExternalTool.unavailable("\(python) is missing (apt-get install python3-dbus python3-gi)")
        }
        let probe = try ProcessRunner.run(python, ["-c", "import dbus, dbus.mainloop.glib; from gi.repository import GLib"], timeout: 30)
        guard probe.status == 0 else {
            try ExternalTool.unavailable(
                "\(python) cannot import dbus and gi (apt-get install python3-dbus python3-gi): \(probe.stderr)")
        }
    }
}

/// The BlueZ mock or its bus failed to start, or a Control1 hook failed.
public struct BlueZMockError: Error, CustomStringConvertible {
    /// What went wrong, with the mock's own message.
    public var description: String

    init(_ description: String) { self.description = description }
}

extension XCTestCase {
    /// Starts a ``BlueZMock`` with mock_bluez.py's `arguments`; it stops when the test ends.
    public func startBlueZMock(
        _ arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line
    ) async throws -> BlueZMock {
        let mock = try await BlueZMock.start(arguments: arguments, file: file, line: line)
        addTeardownBlock { mock.stop() }
        return mock
    }
}
