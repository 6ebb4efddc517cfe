import DescriptorIO
import SMP
import SMPSerial
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Finds serial ports through libudev, with or without udevd.
///
/// ```swift
/// for port in try SerialPortDiscovery.ports() where port.isLikelySMP { print(port) }
/// let board = try await SerialPortDiscovery.waitForPort(matching: .usb(vendorID: 0x2fe3, productID: 0x0100, serialNumber: nil),
///                                                       timeout: .seconds(10))
/// ```
public enum SerialPortDiscovery {
    /// The serial ports attached now (USB serial ports and built-in UARTs; never consoles,
    /// virtual terminals, ptys or unused 8250 slots), in natural path order.
    public static func ports() throws(SerialPortDiscoveryError) -> [SerialPortInfo] {
        try SerialPortReader().ports(in: UdevContext())
    }

    /// The one attached port a selector names.
    public static func resolve(_ selector: SerialPortSelector) throws(SerialPortDiscoveryError) -> SerialPortInfo {
        try selector.resolve(in: ports())
    }

    /// Waits until exactly one attached port matches, and returns it (at once if one is attached).
    ///
    /// - Throws: ``SerialPortDiscoveryError/timedOut(_:after:candidates:)`` after `timeout`,
    ///   ``SerialPortDiscoveryError/ambiguous(_:matches:)`` as soon as several ports match, or
    ///   `CancellationError` when the task is cancelled.
    /// - Parameters:
    ///   - selector: which port to wait for.
    ///   - timeout: how long to wait for it.
    ///   - pollInterval: how often the ports are listed again (without udevd no event comes).
    ///   - clock: what `timeout` runs on (a test's own clock decides when it is over); the ports
    ///     are looked at again every `pollInterval` of real time either way.
    public static func waitForPort(
        matching selector: SerialPortSelector, timeout: Duration, pollInterval: Duration = .milliseconds(200),
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> SerialPortInfo {
        try await waitForArrival(matching: selector, timeout: timeout, pollInterval: pollInterval, clock: clock).port
    }

    /// ``waitForPort(matching:timeout:pollInterval:clock:)``, also telling how the port was found:
    /// already present, by a udev monitor event, or by re-enumerating every `pollInterval`.
    public static func waitForArrival(
        matching selector: SerialPortSelector, timeout: Duration, pollInterval: Duration = .milliseconds(200),
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> SerialPortArrival {
        let waiter = PortWaiter(selector: selector, timeout: timeout, pollInterval: pollInterval, clock: clock)
        do {
            return try await PollingThread.run { thread in try waiter.run(on: thread) }
        } catch let error as PollingThreadError {
            throw SerialPortDiscoveryError.udevUnavailable("could not start waiting: \(error.detail)")
        }
    }

    /// A closure that waits for `port` to come back, matched by ``SerialPortSelector/identity(of:)``,
    /// and returns its path: for a transport that reopens a device after it re-enumerates.
    public static func relocator(for port: SerialPortInfo, timeout: Duration = .seconds(10)) -> @Sendable () async throws -> String {
        let identity = SerialPortSelector.identity(of: port)
        return { try await waitForPort(matching: identity, timeout: timeout).path }
    }

    /// Whether something exists at `path` (a device node or a link to one).
    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }
}
