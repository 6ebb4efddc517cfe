/// The USB vendors discovery knows, and whether a port of theirs is probably an SMP device.
///
/// The allow-list ranks ports, it does not decide: products built with Zephyr or the nRF Connect
/// SDK often carry their own vendor ID, and any UART can carry SMP. `smpctl ports --probe` asks the
/// device. docs/serial.md explains each entry.
public enum SerialVendorCatalog {
    /// One known USB vendor.
    public struct Entry: Sendable, Hashable {
        /// The USB vendor ID.
        public var vendorID: UInt16
        /// The vendor, or what its serial ports are.
        public var name: String
        /// Whether its ports are ranked as likely SMP devices.
        public var isLikelySMP: Bool
        /// Why, in one sentence.
        public var reason: String
    }

    /// The likely SMP vendors (the allow-list), then the known vendors whose ports are not ranked.
    public static let entries: [Entry] = [
        Entry(
            vendorID: 0x2FE3, name: "Zephyr Project", isLikelySMP: true,
            reason: "Zephyr's own USB vendor ID, used by Zephyr applications that keep the default USB IDs; "
                + "USB CDC ACM is Zephyr's usual SMP transport"),
        Entry(
            vendorID: 0x1915, name: "Nordic Semiconductor", isLikelySMP: true,
            reason: "Nordic's USB vendor ID, used by Nordic's boards and by nRF Connect SDK products that keep Nordic's IDs; "
                + "the SDK serves SMP over USB CDC ACM for firmware updates"),
        Entry(
            vendorID: 0x1366, name: "SEGGER J-Link", isLikelySMP: true,
            reason: "the J-Link OB on Nordic development kits passes the target's UART through as a CDC ACM port, "
                + "where Zephyr and nRF Connect SDK applications serve SMP"),
        Entry(
            vendorID: 0x0403, name: "FTDI USB-UART bridge", isLikelySMP: false,
            reason: "a general-purpose USB-UART bridge; the board behind it may or may not speak SMP"),
        Entry(
            vendorID: 0x10C4, name: "Silicon Labs CP210x USB-UART bridge", isLikelySMP: false,
            reason: "a general-purpose USB-UART bridge; the board behind it may or may not speak SMP"),
        Entry(
            vendorID: 0x1A86, name: "WCH CH34x USB-UART bridge", isLikelySMP: false,
            reason: "a general-purpose USB-UART bridge; the board behind it may or may not speak SMP"),
        Entry(
            vendorID: 0x067B, name: "Prolific PL2303 USB-UART bridge", isLikelySMP: false,
            reason: "a general-purpose USB-UART bridge; the board behind it may or may not speak SMP"),
        Entry(
            vendorID: 0x0483, name: "STMicroelectronics ST-LINK", isLikelySMP: false,
            reason: "a debug probe's virtual COM port, mostly a console; SMP only if the firmware serves it on that UART"),
        Entry(
            vendorID: 0x1FC9, name: "NXP MCU-Link / LPC-Link2", isLikelySMP: false,
            reason: "a debug probe's virtual COM port, mostly a console; SMP only if the firmware serves it on that UART"),
        Entry(
            vendorID: 0x0D28, name: "Arm DAPLink", isLikelySMP: false,
            reason: "a debug probe's virtual COM port, mostly a console; SMP only if the firmware serves it on that UART"),
        Entry(
            vendorID: 0x303A, name: "Espressif USB Serial/JTAG", isLikelySMP: false,
            reason: "the ESP32 chips' built-in console and JTAG port; SMP only if the firmware serves it there"),
    ]

    /// The entry for a vendor ID, if known.
    public static func entry(vendorID: UInt16) -> Entry? {
        entries.first { $0.vendorID == vendorID }
    }

    /// Assesses a port from its USB vendor, or from its bus when it is not a USB port.
    static func assess(usb: SerialPortInfo.USBDetails?, bus: String?) -> SMPAssessment {
        guard let usb else {
            return SMPAssessment(
                isLikelySMP: false,
                reason: "a built-in UART\(bus.map { " (\($0))" } ?? ""), not a USB device; SMP only if what is wired to it speaks it")
        }
        guard let entry = entry(vendorID: usb.vendorID) else {
            return SMPAssessment(
                isLikelySMP: false, reason: "USB vendor \(usb.vendorID.hex4) is not a known SMP vendor; the device may still speak SMP")
        }
        return SMPAssessment(isLikelySMP: entry.isLikelySMP, reason: "\(entry.name) (\(usb.vendorID.hex4)): \(entry.reason)")
    }
}
