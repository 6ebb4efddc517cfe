import SMPSerial
import SMPSerialDiscovery

/// A parsed connection string: which transport, which device, and link options.
///
/// Grammar (docs/connection-strings.md):
/// ```
/// connection = transport ":" target [ "?" option *( "&" option ) ]
/// udp        = "udp:" ( host | ipv4 | "[" ipv6 [ "%" zone ] "]" ) [ ":" port ]
/// serial     = "serial:" ( path | "usb=" vid ":" pid [ ":" serial ] | "serial-number=" text | "auto"
///              | ( "tcp://" | "rfc2217://" ) host ":" port )
/// ble        = "ble:" ( address | "name=" text )
/// labgrid    = "labgrid:" place [ "?coordinator=" host [ ":" port ] ]   (a selector; see DeviceSelector)
/// option     = name "=" value
/// ```
/// A connection string is the one-device branch of the connection text that `-c`, profiles and
/// targets files hold (``DeviceSelection``); the other branch is a selector of many devices.
public struct ConnectionString: Sendable, Hashable, CustomStringConvertible {
    /// The device to reach and over which transport.
    public enum Target: Sendable, Hashable {
        /// A UDP endpoint.
        case udp(host: String, port: Int)
        /// A local serial port.
        case serial(SerialPortSelector)
        /// A serial line served over TCP: raw (`serial:tcp://HOST:PORT`: ser2net's `tcp` accepter,
        /// QEMU's socket chardev, socat) or with RFC 2217 port control (`serial:rfc2217://HOST:PORT`:
        /// ser2net's `telnet(rfc2217)` accepter, labgrid's exporters).
        case serialServer(SerialServerAddress)
        /// A Bluetooth LE peripheral.
        case ble(BLESelector)
        /// The serial port of a labgrid place, known once the place is acquired
        /// (``LabgridCoordinator/withDevice(of:_:)``): `labgrid:PLACE`.
        case labgridPlace(LabgridPlace)
    }

    /// How a Bluetooth LE peripheral is chosen.
    public enum BLESelector: Sendable, Hashable {
        /// By address, `AA:BB:CC:DD:EE:FF`.
        case address(String)
        /// By advertised name.
        case name(String)
    }

    /// The device.
    public var target: Target
    /// Link options.
    public var options: ConnectionOptions

    /// Creates a connection string from parts.
    public init(target: Target, options: ConnectionOptions = ConnectionOptions()) {
        self.target = target
        self.options = options
    }

    /// Parses a connection string; errors name the part that is wrong and show the accepted forms.
    public init(parsing text: String) throws(ConnectionStringError) {
        self = try ConnectionTextParser(text).connection()
    }

    /// The transport the connection runs over.
    public var transport: Transport {
        switch target {
        case .udp: return .udp
        case .serial, .serialServer, .labgridPlace: return .serial
        case .ble: return .ble
        }
    }

    public var description: String {
        let base: String
        switch target {
        case .udp(let host, let port):
            base = "udp:\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .serial(let selector): base = "serial:\(selector)"
        case .serialServer(let server): base = "serial:\(server)"
        case .ble(.address(let address)): base = "ble:\(address)"
        case .ble(.name(let name)): base = "ble:name=\(name)"
        case .labgridPlace(let place): base = place.description
        }
        let query = options.queryItems.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        if case .labgridPlace(let place) = target, place.coordinator != nil { return query.isEmpty ? base : "\(base)&\(query)" }
        return query.isEmpty ? base : "\(base)?\(query)"
    }
}
