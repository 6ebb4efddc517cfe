import SMPSerial

/// Builds ``SerialPortInfo`` values from libudev's tty devices.
///
/// Sysfs attributes come first, since they exist with or without udevd (as pyserial reads them);
/// udev properties only fill what sysfs lacks, and exist only where udevd recorded them.
struct SerialPortReader {
    private let linkFolders = LinkFolderIndex()

    /// Every serial port of the context's machine, in natural path order (ttyACM2 before ttyACM10).
    func ports(in context: UdevContext) throws(SerialPortDiscoveryError) -> [SerialPortInfo] {
        try context.devices(inSubsystem: "tty").compactMap(port(from:)).sorted { Self.sortKey($0.path) < Self.sortKey($1.path) }
    }

    /// The port a tty device is, or nil for ttys that are no serial port: virtual terminals,
    /// consoles, ptys (no hardware parent) and unused legacy 8250 slots.
    func port(from tty: UdevDevice) -> SerialPortInfo? {
        guard let hardware = Self.hardware(of: tty), !Self.isUnused8250Slot(tty, hardware: hardware),
              let path = tty.devnode ?? tty.sysname.map({ "/dev/" + $0 })
        else { return nil }
        let usbInterface = tty.parent(subsystem: "usb", devtype: "usb_interface")
        let usb = Self.usbDetails(of: tty, interface: usbInterface)
        return SerialPortInfo(
            path: path,
            links: tty.property("DEVLINKS").map(DeviceLinks.parse(property:)) ?? linkFolders.links(to: path),
            bus: usb != nil ? "usb" : hardware.subsystem,
            driver: usbInterface?.driver ?? hardware.driver ?? tty.property("ID_USB_DRIVER"),
            usb: usb,
            usbPath: usb == nil ? nil : tty.parent(subsystem: "usb", devtype: "usb_device")?.sysname,
            properties: tty.properties)
    }

    /// The device behind a tty: its parent, past the kernel's `serial-base` controller and port
    /// devices (Linux 6.5+); nil for virtual ttys.
    private static func hardware(of tty: UdevDevice) -> UdevDevice? {
        var device = tty.parent
        while let current = device, current.subsystem == "serial-base" { device = current.parent }
        return device
    }

    /// A slot of the legacy 8250 driver's platform device with no UART found behind it: the
    /// kernel registers ttyS0–ttyS31 on PCs whether or not the ports exist, and reports
    /// `type` 0 (unknown) for the missing ones.
    private static func isUnused8250Slot(_ tty: UdevDevice, hardware: UdevDevice) -> Bool {
        hardware.subsystem == "platform" && hardware.sysname == "serial8250" && (tty.attribute("type") ?? "0") == "0"
    }

    private static func usbDetails(of tty: UdevDevice, interface: UdevDevice?) -> SerialPortInfo.USBDetails? {
        let device = tty.parent(subsystem: "usb", devtype: "usb_device")
        guard device != nil || tty.property("ID_BUS") == "usb",
              let vendorID = hex16(device?.attribute("idVendor") ?? tty.property("ID_VENDOR_ID")),
              let productID = hex16(device?.attribute("idProduct") ?? tty.property("ID_MODEL_ID"))
        else { return nil }
        return SerialPortInfo.USBDetails(
            vendorID: vendorID,
            productID: productID,
            manufacturer: device?.attribute("manufacturer") ?? udevDecoded(tty.property("ID_VENDOR_ENC")) ?? tty.property("ID_VENDOR"),
            product: device?.attribute("product") ?? udevDecoded(tty.property("ID_MODEL_ENC")) ?? tty.property("ID_MODEL"),
            serialNumber: device?.attribute("serial") ?? tty.property("ID_SERIAL_SHORT"),
            bcdDevice: device?.attribute("bcdDevice") ?? tty.property("ID_REVISION"),
            interfaceNumber: (interface?.attribute("bInterfaceNumber") ?? tty.property("ID_USB_INTERFACE_NUM")).flatMap { Int($0, radix: 16) })
    }

    /// 1 to 4 hex digits as a number (no sign, unlike `UInt16(_:radix:)` alone).
    static func hex16(_ text: String?) -> UInt16? {
        guard let text, (1...4).contains(text.count), text.allSatisfy(\.isHexDigit) else { return nil }
        return UInt16(text, radix: 16)
    }

    /// A udev `*_ENC` value with its `\xNN` escapes decoded (`ZEPHYR\x20Project`).
    static func udevDecoded(_ text: String?) -> String? {
        guard let text else { return nil }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "\\"), index + 3 < utf8.count, utf8[index + 1] == UInt8(ascii: "x"),
               let byte = UInt8(String(decoding: utf8[index + 2...index + 3], as: UTF8.self), radix: 16) {
                bytes.append(byte)
                index += 4
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        let decoded = String(decoding: bytes, as: UTF8.self).trimmingWhiteSpace
        return decoded.isEmpty ? nil : decoded
    }

    /// `/dev/ttyACM10` → ("/dev/ttyACM", 10), so that numbers sort as numbers.
    private static func sortKey(_ path: String) -> SortKey {
        let digits = path.reversed().prefix(while: \.isNumber)
        return SortKey(stem: String(path.dropLast(digits.count)), number: Int(String(digits.reversed())) ?? -1, path: path)
    }

    private struct SortKey: Comparable {
        var stem: String
        var number: Int
        var path: String

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            (lhs.stem, lhs.number, lhs.path) < (rhs.stem, rhs.number, rhs.path)
        }
    }
}
