#if canImport(Glibc)
import Glibc
#endif
import SMP

/// The blocking loop behind ``SerialPortDiscovery/waitForArrival(matching:timeout:pollInterval:)``:
/// a udev monitor enabled before the first enumeration, so that nothing attached in between is
/// missed, and re-enumeration on each monitor event and every `pollInterval`, because without
/// udevd the monitor receives nothing. Runs on a thread of its own, never the cooperative pool.
struct PortWaiter: Sendable {
    let selector: SerialPortSelector
    let timeout: Duration
    let pollInterval: Duration
    let wakeup: WakeupPipe

    func run() throws -> SerialPortArrival {
        let clock = ContinuousClock()
        let start = clock.now
        let context = try UdevContext()
        let monitor = UdevMonitor(context: context, subsystem: "tty")
        var detection = SerialPortArrival.Detection.alreadyPresent
        while true {
            if wakeup.isSignalled { throw CancellationError() }
            let ports = try SerialPortReader().ports(in: context)
            do {
                let port = try selector.resolve(in: ports)
                return SerialPortArrival(port: port, detection: detection, elapsed: clock.now - start)
            } catch {
                guard case .noMatch = error else { throw error }
            }
            let remaining = timeout - (clock.now - start)
            guard remaining > .zero else { throw SerialPortDiscoveryError.timedOut(selector, after: timeout, candidates: ports) }
            detection = try waitForEvent(monitor, for: min(remaining, pollInterval))
        }
    }

    /// Sleeps until a monitor event, a wake-up or the end of `interval`. Returns `.udevMonitor`
    /// when an "add" event came, else `.polling`.
    private func waitForEvent(_ monitor: UdevMonitor?, for interval: Duration) throws -> SerialPortArrival.Detection {
        var descriptors = [pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0)]
        if let monitor { descriptors.append(pollfd(fd: monitor.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = Int32(max(1, min(Double(Int32.max), (interval / .milliseconds(1)).rounded(.up))))
        guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) > 0 else { return .polling }
        if descriptors[0].revents != 0 { throw CancellationError() }
        var added = false
        while let device = monitor?.receive() {
            if device.action == "add" { added = true }
        }
        return added ? .udevMonitor : .polling
    }
}
