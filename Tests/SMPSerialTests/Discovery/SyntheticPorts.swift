import SMPSerial
import SMPSerialDiscovery

/// Hand-made ports for selector and message tests; no udev involved.
enum SyntheticPorts {
    static let zephyr = SerialPortInfo(
        path: "/dev/ttyACM0",
        links: ["/dev/serial/by-id/usb-ZEPHYR_USB-DEV_9B1D1F8C6A3E4F21-if00", "/dev/serial/by-path/pci-0000:00:14.0-usb-0:2:1.0"],
        bus: "usb", driver: "cdc_acm",
        usb: .init(vendorID: 0x2FE3, productID: 0x0100, manufacturer: "ZEPHYR", product: "USB-DEV",
                   serialNumber: "9B1D1F8C6A3E4F21", bcdDevice: "0401", interfaceNumber: 0))

    static let secondZephyr = SerialPortInfo(
        path: "/dev/ttyACM4", bus: "usb", driver: "cdc_acm",
        usb: .init(vendorID: 0x2FE3, productID: 0x0100, manufacturer: "ZEPHYR", product: "USB-DEV", serialNumber: "77AA", interfaceNumber: 0))

    /// Two virtual COM ports of one J-Link: the same serial number on interfaces 0 and 2.
    static let jLinkVCOM0 = jLink(path: "/dev/ttyACM1", interface: 0)
    static let jLinkVCOM1 = jLink(path: "/dev/ttyACM2", interface: 2)

    static let ftdi = SerialPortInfo(
        path: "/dev/ttyUSB0", links: ["/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"], bus: "usb", driver: "ftdi_sio",
        usb: .init(vendorID: 0x0403, productID: 0x6001, manufacturer: "FTDI", product: "FT232R USB UART", serialNumber: "A50285BI", interfaceNumber: 0))

    static let uart = SerialPortInfo(path: "/dev/ttyS0", links: ["/dev/serial/by-path/pnp-00:00"], bus: "pnp", driver: "serial")

    static let all = [zephyr, jLinkVCOM0, jLinkVCOM1, ftdi, uart]

    private static func jLink(path: String, interface: Int) -> SerialPortInfo {
        SerialPortInfo(
            path: path, links: ["/dev/serial/by-id/usb-SEGGER_J-Link_001050123456-if0\(interface)"], bus: "usb", driver: "cdc_acm",
            usb: .init(vendorID: 0x1366, productID: 0x1051, manufacturer: "SEGGER", product: "J-Link", serialNumber: "001050123456",
                       bcdDevice: "0100", interfaceNumber: interface))
    }
}
