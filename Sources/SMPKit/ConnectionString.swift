import SMPSerial

/// A parsed connection string: which transport, which device, and link options.
///
/// Grammar (docs/connection-strings.md):
/// ```
/// connection = transport ":" target [ "?" option *( "&" option ) ]
/// udp        = "udp:" ( host | ipv4 | "[" ipv6 [ "%" zone ] "]" ) [ ":" port ]
/// serial     = "serial:" ( path | "usb=" vid ":" pid [ ":" serial ] | "serial-number=" text | "auto"
///              | "tcp://" host ":" port )
/// ble        = "ble:" ( address | "name=" text )
/// option     = name "=" value
/// ```
public struct ConnectionString: Sendable, Hashable, CustomStringConvertible {
    /// The device to reach and over which transport.
    public enum Target: Sendable, Hashable {
        /// A UDP endpoint.
        case udp(host: String, port: Int)
        /// A serial port.
        case serial(SerialSelector)
        /// A Bluetooth LE peripheral.
        case ble(BLESelector)
    }

    /// How a serial port is chosen.
    public enum SerialSelector: Sendable, Hashable {
        /// A device path such as `/dev/ttyACM0` or a `/dev/serial/by-id/…` link.
        case path(String)
        /// A USB device by vendor and product ID, and optionally its serial number.
        case usb(vendorID: UInt16, productID: UInt16, serialNumber: String?)
        /// A USB device by serial number.
        case serialNumber(String)
        /// The only likely SMP device attached.
        case auto
        /// A serial line served over TCP (ser2net in raw mode, QEMU's socket chardev, socat).
        case tcp(host: String, port: Int)
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
        self = try ConnectionStringParser(text).parse()
    }

    /// The transport's name: "udp", "serial" or "ble".
    public var transportName: String {
        switch target {
        case .udp: return "udp"
        case .serial: return "serial"
        case .ble: return "ble"
        }
    }

    public var description: String {
        let base: String
        switch target {
        case .udp(let host, let port):
            base = "udp:\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .serial(.path(let path)): base = "serial:\(path)"
        case .serial(.usb(let vid, let pid, let serial)):
            base = "serial:usb=\(hex4(vid)):\(hex4(pid))" + (serial.map { ":\($0)" } ?? "")
        case .serial(.serialNumber(let serial)): base = "serial:serial-number=\(serial)"
        case .serial(.auto): base = "serial:auto"
        case .serial(.tcp(let host, let port)): base = "serial:\(SerialEndpoint.tcp(host: host, port: port))"
        case .ble(.address(let address)): base = "ble:\(address)"
        case .ble(.name(let name)): base = "ble:name=\(name)"
        }
        let query = options.queryItems.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        return query.isEmpty ? base : "\(base)?\(query)"
    }
}

func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 4 - digits.count) + digits
}
