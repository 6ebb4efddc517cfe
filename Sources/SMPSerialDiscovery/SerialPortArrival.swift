/// A port ``SerialPortDiscovery/waitForArrival(matching:timeout:pollInterval:clock:)`` found, and how.
public struct SerialPortArrival: Sendable, Hashable {
    /// How the port was found.
    public enum Detection: String, Sendable, Hashable {
        /// It was attached already when the wait began.
        case alreadyPresent = "present"
        /// A udev monitor event announced it (udevd is running).
        case udevMonitor = "monitor"
        /// A periodic re-enumeration found it (no udevd, or its event was missed).
        case polling = "polling"
    }

    /// The port.
    public var port: SerialPortInfo
    /// How it was found.
    public var detection: Detection
    /// How long the wait took.
    public var elapsed: Duration
}
