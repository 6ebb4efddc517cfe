import SMP

/// Why no serial port could be chosen. Each case lists the ports there are, so that the message
/// shows what to choose from.
public enum SerialPortDiscoveryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No port matches the selector.
    case noMatch(SerialPortSelector, candidates: [SerialPortInfo])
    /// Several ports match a selector that must name one.
    case ambiguous(SerialPortSelector, matches: [SerialPortInfo])
    /// No matching port appeared in time.
    case timedOut(SerialPortSelector, after: Duration, candidates: [SerialPortInfo])
    /// libudev could not be used at all.
    case udevUnavailable(String)

    /// What went wrong, in one line.
    public var message: String {
        switch self {
        case .noMatch(.auto, _):
            return "no likely SMP device is attached (a Zephyr 2fe3, Nordic 1915 or SEGGER J-Link 1366 USB serial port)"
        case .noMatch(let selector, _):
            return "no serial port matches \(selector)"
        case .ambiguous(let selector, let matches):
            return "\(matches.count) serial ports match \(selector); name one"
        case .timedOut(let selector, let timeout, _):
            return "no serial port matching \(selector) appeared within \(Self.seconds(timeout)) s"
        case .udevUnavailable(let problem):
            return problem
        }
    }

    /// What to try, with the ports to choose from; several lines.
    public var hint: String? {
        switch self {
        case .noMatch(let selector, let candidates), .timedOut(let selector, _, let candidates):
            guard !candidates.isEmpty else {
                return "no serial ports were found: check the cable, and that the device enumerates (dmesg | tail)"
            }
            let advice = selector == .auto ? "name one of them (ports without a known SMP vendor ID may still speak SMP):" : "serial ports present:"
            return ([advice] + candidates.map { Self.line(for: $0, among: candidates) }).joined(separator: "\n")
        case .ambiguous(_, let matches):
            return (["name one with usb=VID:PID:SERIAL, or by path:"]
                + matches.map { Self.line(for: $0, among: matches) }).joined(separator: "\n")
        case .udevUnavailable:
            return "name the port by its path instead, e.g. serial:/dev/ttyACM0"
        }
    }

    public var description: String { hint.map { "\(message)\n\($0)" } ?? message }

    /// The error as a transport failure, for connection code that reports `SMPTransportError`s.
    public var transportError: SMPTransportError {
        switch self {
        case .udevUnavailable: return SMPTransportError(.unavailable, message, hint: hint)
        default: return SMPTransportError(.notFound, message, hint: hint)
        }
    }

    /// "  usb=2fe3:0100:9B1D…  (/dev/ttyACM0 2fe3:0100 ZEPHYR USB-DEV …)", or the port alone when
    /// its path is the selector.
    private static func line(for port: SerialPortInfo, among ports: [SerialPortInfo]) -> String {
        let selector = SerialPortSelector.naming(port, among: ports)
        return selector == .path(port.path) ? "  \(port)" : "  \(selector)  (\(port))"
    }

    /// "10", "0.5".
    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard attoseconds != 0 else { return String(seconds) }
        return String(Double(seconds) + Double(attoseconds) / 1e18)
    }
}
