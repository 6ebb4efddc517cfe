import SMP
import SMPSerial

/// A serial port present on this machine, as discovery found it.
///
/// Built from sysfs attributes, which exist with or without udevd; udev properties fill gaps only
/// where udevd has recorded them (see docs/serial.md).
public struct SerialPortInfo: Sendable, Hashable, CustomStringConvertible {
    /// The device node, `/dev/ttyACM0`.
    public var path: String
    /// Symbolic links to the node: `/dev/serial/by-id/…`, `/dev/serial/by-path/…`, `/dev/smp/…`, sorted.
    public var links: [String]
    /// The bus of the hardware behind the port: `usb`, `pnp`, `platform`, `amba`, `pci`…; nil if unknown.
    public var bus: String?
    /// The kernel driver serving the port: `cdc_acm`, `ftdi_sio`, `serial`, `uart-pl011`…
    public var driver: String?
    /// The USB device and interface, for USB serial ports.
    public var usb: USBDetails?
    /// Where the USB device is plugged, as sysfs names it (`1-1.2`: bus 1, port 1, hub port 2); nil for other ports.
    public var usbPath: String?
    /// The port's udev properties (`ID_MODEL`, `ID_SERIAL_SHORT`…): empty without udevd.
    public var properties: [String: String]

    /// The USB side of a USB serial port.
    public struct USBDetails: Sendable, Hashable {
        /// `idVendor`, e.g. 0x2fe3.
        public var vendorID: UInt16
        /// `idProduct`, e.g. 0x0100.
        public var productID: UInt16
        /// The manufacturer string, `ZEPHYR`.
        public var manufacturer: String?
        /// The product string, `USB-DEV`.
        public var product: String?
        /// The USB serial number string.
        public var serialNumber: String?
        /// The device release number (`bcdDevice`) as four hex digits, `0206`.
        public var bcdDevice: String?
        /// The number of the USB interface the port belongs to (`bInterfaceNumber`).
        public var interfaceNumber: Int?

        /// Creates USB details.
        public init(
            vendorID: UInt16, productID: UInt16, manufacturer: String? = nil, product: String? = nil,
            serialNumber: String? = nil, bcdDevice: String? = nil, interfaceNumber: Int? = nil
        ) {
            self.vendorID = vendorID
            self.productID = productID
            self.manufacturer = manufacturer
            self.product = product
            self.serialNumber = serialNumber
            self.bcdDevice = bcdDevice
            self.interfaceNumber = interfaceNumber
        }

        /// The vendor ID as four lower-case hex digits, `2fe3`.
        public var vendorIDHex: String { vendorID.hex4 }
        /// The product ID as four lower-case hex digits, `0100`.
        public var productIDHex: String { productID.hex4 }
        /// `2fe3:0100`.
        public var ids: String { "\(vendorIDHex):\(productIDHex)" }
    }

    /// Creates a port description.
    public init(
        path: String, links: [String] = [], bus: String? = nil, driver: String? = nil, usb: USBDetails? = nil, usbPath: String? = nil,
        properties: [String: String] = [:]
    ) {
        self.path = path
        self.links = links.sorted()
        self.bus = bus
        self.driver = driver
        self.usb = usb
        self.usbPath = usbPath
        self.properties = properties
    }

    /// Whether the device is probably an SMP device, and why (see ``SerialVendorCatalog``).
    public var assessment: SMPAssessment { SerialVendorCatalog.assess(usb: usb, bus: bus) }

    /// The kernel name, `ttyACM0`.
    public var name: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// The `/dev/serial/by-id/…` links.
    public var byIDLinks: [String] { links.filter { $0.hasPrefix(DeviceLinks.byIDDirectory + "/") } }

    /// The `/dev/serial/by-path/…` links.
    public var byPathLinks: [String] { links.filter { $0.hasPrefix(DeviceLinks.byPathDirectory + "/") } }

    /// Whether the port is probably an SMP device.
    public var isLikelySMP: Bool { assessment.isLikelySMP }

    /// "/dev/ttyACM0 2fe3:0100 ZEPHYR USB-DEV serial 9B1D1F8C6A3E4F21 interface 0"
    public var description: String {
        var parts = [path]
        if let usb {
            parts.append(usb.ids)
            if let name = [usb.manufacturer, usb.product].compactMap({ $0 }).joined(separator: " ").nonEmpty { parts.append(name) }
            if let serial = usb.serialNumber { parts.append("serial \(serial)") }
            if let interface = usb.interfaceNumber { parts.append("interface \(interface)") }
        } else if let bus {
            parts.append("(\(bus)\(driver.map { ", \($0)" } ?? ""))")
        }
        return parts.joined(separator: " ")
    }
}

/// Whether a port is probably an SMP device, and the reason in words.
public struct SMPAssessment: Sendable, Hashable {
    /// True for vendors on the SMP allow-list.
    public var isLikelySMP: Bool
    /// Why, e.g. "Zephyr's USB vendor ID (2fe3): …".
    public var reason: String

    /// Creates an assessment.
    public init(isLikelySMP: Bool, reason: String) {
        self.isLikelySMP = isLikelySMP
        self.reason = reason
    }
}

extension UInt16 {
    /// Four lower-case hex digits, `2fe3`, as USB IDs are written.
    var hex4: String { Hex.string([UInt8(self >> 8), UInt8(self & 0xFF)]) }
}

extension String {
    /// nil for the empty string.
    var nonEmpty: String? { isEmpty ? nil : self }
}
