#if canImport(Glibc)
import Glibc
#endif
import DescriptorIO

/// The blocking loop behind ``SerialPortDiscovery/waitForArrival(matching:timeout:pollInterval:clock:)``:
/// a udev monitor enabled before the first enumeration, so that nothing attached in between is
/// missed, and re-enumeration on each monitor event and every `pollInterval`, because without
/// udevd the monitor receives nothing. Runs on a ``PollingThread``, never the cooperative pool;
/// stopping the thread (the task's cancellation) ends it with `CancellationError`.
struct PortWaiter: Sendable {
    let selector: SerialPortSelector
    let timeout: Duration
    let pollInterval: Duration
    /// What the timeout and the arrival's time are measured with.
    let clock: any Clock<Duration>

    func run(on thread: PollingThread) throws -> SerialPortArrival {
        // Swift 6.3 opens a local existential for the generic call, not the stored property.
        let measured: any Clock<Duration> = clock
        let elapsed = Self.stopwatch(measured)
        let context = try UdevContext()
        let monitor = UdevMonitor(context: context, subsystem: "tty")
        var detection = SerialPortArrival.Detection.alreadyPresent
        while true {
            if thread.isStopping { throw CancellationError() }
            let ports = try SerialPortReader().ports(in: context)
            do {
                let port = try selector.resolve(in: ports)
                return SerialPortArrival(port: port, detection: detection, elapsed: elapsed())
            } catch {
                guard case .noMatch = error else { throw error }
            }
            let remaining = timeout - elapsed()
            guard remaining > .zero else { throw SerialPortDiscoveryError.timedOut(selector, after: timeout, candidates: ports) }
            detection = try waitForEvent(monitor, for: min(remaining, pollInterval), on: thread)
        }
    }

    /// The time `clock` has moved on since this call.
    private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
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
