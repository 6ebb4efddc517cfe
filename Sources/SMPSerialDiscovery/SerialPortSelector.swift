import SMPSerial

/// Which serial port to use: the serial forms of a connection string and of a many-device selector
/// (docs/connection-strings.md, docs/many-devices.md). A connection string names one port with it
/// (``resolve(in:)``), a selector every port it ``matches(_:)``.
public enum SerialPortSelector: Sendable, Hashable, CustomStringConvertible {
    /// A device path, `/dev/ttyACM0`, or a link to it such as `/dev/serial/by-id/…`.
    case path(String)
    /// A USB device by vendor and product ID, and optionally its serial number.
    case usb(vendorID: UInt16, productID: UInt16, serialNumber: String?)
    /// A USB device by serial number.
    case serialNumber(String)
    /// The one interface of a USB device with this serial number: how ``identity(of:)`` finds a
    /// device with several serial interfaces again.
    case usbInterface(serialNumber: String, interfaceNumber: Int)
    /// The only likely SMP device attached (`serial:auto`), or every one (`serial:*`).
    case auto
    /// The ports passing every condition of a filter (`serial:vid=2fe3,serial=E661*`).
    case matching(SerialPortFilter)

    /// The selector that finds the same device again after it re-enumerates, possibly under
    /// another node name (ttyACM1 instead of ttyACM0, after a reset or a firmware update): its
    /// USB serial number (and interface), else its path.
    ///
    /// The vendor and product IDs are left out on purpose, since a bootloader may use others.
    public static func identity(of port: SerialPortInfo) -> SerialPortSelector {
        guard let serial = port.usb?.serialNumber else { return .path(port.path) }
        guard let interface = port.usb?.interfaceNumber else { return .serialNumber(serial) }
        return .usbInterface(serialNumber: serial, interfaceNumber: interface)
    }

    /// The shortest selector that names `port` alone among `ports`, for messages and listings:
    /// `usb=VID:PID:SERIAL` when its serial number is unique there, else its first by-id link,
    /// else its path.
    public static func naming(_ port: SerialPortInfo, among ports: [SerialPortInfo]) -> SerialPortSelector {
        if let usb = port.usb, let serial = usb.serialNumber {
            let selector = SerialPortSelector.usb(vendorID: usb.vendorID, productID: usb.productID, serialNumber: serial)
            if ports.filter(selector.matches).count == 1 { return selector }
        }
        return .path(port.byIDLinks.first ?? port.path)
    }

    /// Whether a port matches. Serial numbers compare without regard to case; a path matches the
    /// node, any of its links, or any other path that resolves to the same device.
    public func matches(_ port: SerialPortInfo) -> Bool {
        switch self {
        case .path(let path):
            return port.path == path || port.links.contains(path) || DeviceLinks.sameDevice(path, port.path)
        case .usb(let vendorID, let productID, let serial):
            guard let usb = port.usb, usb.vendorID == vendorID, usb.productID == productID else { return false }
            return serial.map { Self.sameSerial($0, usb.serialNumber) } ?? true
        case .serialNumber(let serial):
            return Self.sameSerial(serial, port.usb?.serialNumber)
        case .usbInterface(let serial, let interface):
            return Self.sameSerial(serial, port.usb?.serialNumber) && port.usb?.interfaceNumber == interface
        case .auto:
            return port.isLikelySMP
        case .matching(let filter):
            return filter.matches(port)
        }
    }

    /// The one port among `ports` this selector names.
    ///
    /// - Throws: ``SerialPortDiscoveryError/noMatch(_:candidates:)`` listing the ports there are, or
    ///   ``SerialPortDiscoveryError/ambiguous(_:matches:)`` listing the matches with a selector for each.
    public func resolve(in ports: [SerialPortInfo]) throws(SerialPortDiscoveryError) -> SerialPortInfo {
        let matches = ports.filter(matches)
        switch matches.count {
        case 1: return matches[0]
        case 0: throw .noMatch(self, candidates: ports)
        default: throw .ambiguous(self, matches: matches)
        }
    }

    /// The selector as written after `serial:` in a connection string: `usb=2fe3:0100`, `auto`…
    public var description: String {
        switch self {
        case .path(let path): return path
        case .usb(let vendorID, let productID, let serial):
            return "usb=\(vendorID.hex4):\(productID.hex4)" + (serial.map { ":\($0)" } ?? "")
        case .serialNumber(let serial): return "serial-number=\(serial)"
        case .usbInterface(let serial, let interface): return "serial-number=\(serial) (interface \(interface))"
        case .auto: return "auto"
        case .matching(let filter): return filter.description
        }
    }

    private static func sameSerial(_ wanted: String, _ actual: String?) -> Bool {
        guard let actual else { return false }
        return wanted.lowercased() == actual.lowercased()
    }
}
