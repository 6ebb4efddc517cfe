/// The link a connection runs over, as the scheme of a connection string names it.
public enum Transport: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// SMP over UDP (`udp:`).
    case udp
    /// SMP over a serial line: a local port or a serial server over TCP (`serial:`).
    case serial
    /// SMP over Bluetooth LE (`ble:`).
    case ble

    /// The scheme's name: `udp`, `serial` or `ble`.
    public var description: String { rawValue }
}
