import SMPSerialDiscovery

/// A selector of possibly many devices, as parsed (docs/many-devices.md); finding the devices it
/// names (udev discovery, a BLE scan) is SMPFleet's `TargetSelector`.
///
/// Forms:
/// - `serial:*`: every likely SMP serial device (the test of `serial:auto`);
/// - `serial:KEY=GLOB[,KEY=GLOB…]`: the serial ports passing every condition (`SerialPortFilter`),
///   also `serial:serial-number=GLOB` and `serial:/dev/ttyACM*` when they hold a wildcard;
/// - `udp:HOST,HOST:PORT`, `udp:[HOST:PORT,HOST]`, `udp:HOST:LOW-HIGH`, `udp:A.B.C.LOW-HIGH`
///   (at most 4096 endpoints);
/// - `ble:name=GLOB` with a `*`: a BLE scan (`?scan=SECONDS`);
/// - `labgrid:PLACE` or `labgrid:GLOB` (fnmatch: `*`, `?`, `[…]`): the places of a labgrid
///   coordinator (`?coordinator=HOST:PORT`, else `LG_COORDINATOR`), each reached through the serial
///   port it exports while acquired.
///
/// Its `?options` (timeout, retries, baud…) apply to every device it matches.
public struct DeviceSelector: Sendable, Hashable, CustomStringConvertible {
    /// Which devices, by transport.
    public enum Form: Sendable, Hashable {
        /// The attached serial ports the selector matches: `SerialPortSelector.auto` for `serial:*`,
        /// else `SerialPortSelector.matching(_:)`.
        case serial(SerialPortSelector)
        /// UDP endpoints, in the order written.
        case udp([UDPEndpoint])
        /// The BLE devices a scan hears whose advertised name matches; the scan's length when the
        /// selector gives one (`?scan=SECONDS`).
        case bleName(GlobPattern, scanSeconds: Double?)
        /// The places of a labgrid coordinator whose names match `pattern` (one place when it holds
        /// no wildcard); the coordinator when the selector names one.
        case labgrid(pattern: String, coordinator: String?)
    }

    /// The text as written (spaces around it trimmed).
    public var text: String
    /// Which devices.
    public var form: Form
    /// The link options every matched device gets.
    public var options: ConnectionOptions

    /// Creates a selector from parts.
    public init(text: String, form: Form, options: ConnectionOptions = ConnectionOptions()) {
        self.text = text
        self.form = form
        self.options = options
    }

    /// The transport of the devices.
    public var transport: Transport {
        switch form {
        case .serial, .labgrid: return .serial
        case .udp: return .udp
        case .bleName: return .ble
        }
    }

    public var description: String { text }
}

/// One UDP endpoint of a selector.
public struct UDPEndpoint: Sendable, Hashable {
    /// The host name or address (IPv6 without brackets).
    public var host: String
    /// The port.
    public var port: Int

    /// Creates an endpoint.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }
}
