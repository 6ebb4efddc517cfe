#if canImport(Glibc)
import Glibc
#endif
import DescriptorIO

/// The blocking loop behind ``SerialPortDiscovery/waitForArrival(matching:timeout:pollInterval:)``:
/// a udev monitor enabled before the first enumeration, so that nothing attached in between is
/// missed, and re-enumeration on each monitor event and every `pollInterval`, because without
/// udevd the monitor receives nothing. Runs on a ``PollingThread``, never the cooperative pool;
/// stopping the thread (the task's cancellation) ends it with `CancellationError`.
struct PortWaiter: Sendable {
    let selector: SerialPortSelector
    let timeout: Duration
    let pollInterval: Duration

    func run(on thread: PollingThread) throws -> SerialPortArrival {
        let clock = ContinuousClock()
        let start = clock.now
        let context = try UdevContext()
        let monitor = UdevMonitor(context: context, subsystem: "tty")
        var detection = SerialPortArrival.Detection.alreadyPresent
        while true {
            if thread.isStopping { throw CancellationError() }
            let ports = try SerialPortReader().ports(in: context)
            do {
                let port = try selector.resolve(in: ports)
                return SerialPortArrival(port: port, detection: detection, elapsed: clock.now - start)
            } catch {
                guard case .noMatch = error else { throw error }
            }
            let remaining = timeout - (clock.now - start)
            guard remaining > .zero else { throw SerialPortDiscoveryError.timedOut(selector, after: timeout, candidates: ports) }
            detection = try waitForEvent(monitor, for: min(remaining, pollInterval), on: thread)
        }
    }

    /// Sleeps until a monitor event, a wake-up or the end of `interval`. Returns `.udevMonitor`
    /// when an "add" event came, else `.polling`.
    private func waitForEvent(_ monitor: UdevMonitor?, for interval: Duration, on thread: PollingThread) throws -> SerialPortArrival.Detection {
        var descriptors: [pollfd] = []
        if let monitor { descriptors.append(pollfd(fd: monitor.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
        switch thread.wait(&descriptors, timeout: max(.milliseconds(1), interval)) {
        case .ready: break
        case .woken: if thread.isStopping { throw CancellationError() } else { return .polling }
        case .timedOut, .failed: return .polling
        }
        var added = false
        while let device = monitor?.receive() {
            if device.action == "add" { added = true }
        }
        return added ? .udevMonitor : .polling
    }
}
