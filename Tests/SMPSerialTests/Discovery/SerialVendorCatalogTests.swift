import SMPSerial
import SMPSerialDiscovery
import SMPTestSupport
import XCTest

/// The SMP allow-list and the reasons given for each port.
final class SerialVendorCatalogTests: XCTestCase {
    func testTheAllowListIsZephyrNordicAndSEGGER() {
        XCTAssertEqual(SerialVendorCatalog.entries.filter(\.isLikelySMP).map(\.vendorID), [0x2FE3, 0x1915, 0x1366])
        XCTAssertEqual(Set(SerialVendorCatalog.entries.map(\.vendorID)).count, SerialVendorCatalog.entries.count, "a vendor listed twice")
    }

    func testLikelyPortsSayWhichVendorAndWhy() {
        let cases: [(UInt16, String)] = [(0x2FE3, "Zephyr Project (2fe3): "), (0x1915, "Nordic Semiconductor (1915): "), (0x1366, "SEGGER J-Link (1366): ")]
        for (vendorID, prefix) in cases {
            let port = SerialPortInfo(path: "/dev/ttyACM0", bus: "usb", usb: .init(vendorID: vendorID, productID: 1))
            XCTAssertTrue(port.isLikelySMP)
            XCTAssertTrue(port.assessment.reason.hasPrefix(prefix), port.assessment.reason)
        }
    }

    func testBridgesProbesUnknownVendorsAndBuiltInUARTsAreNotRanked() {
        for vendorID: UInt16 in [0x0403, 0x10C4, 0x1A86, 0x067B, 0x0483, 0x1FC9, 0x0D28, 0x303A] {
            let port = SerialPortInfo(path: "/dev/ttyUSB0", bus: "usb", usb: .init(vendorID: vendorID, productID: 1))
            XCTAssertFalse(port.isLikelySMP, "\(vendorID)")
            XCTAssertNotNil(SerialVendorCatalog.entry(vendorID: vendorID))
        }
        let unknown = SerialPortInfo(path: "/dev/ttyACM3", bus: "usb", usb: .init(vendorID: 0xCAFE, productID: 1))
        XCTAssertFalse(unknown.isLikelySMP)
        XCTAssertEqual(unknown.assessment.reason, "USB vendor cafe is not a known SMP vendor; the device may still speak SMP")
        let uart = SerialPortInfo(path: "/dev/ttyAMA0", bus: "amba", driver: "uart-pl011")
        XCTAssertFalse(uart.isLikelySMP)
        XCTAssertEqual(uart.assessment.reason, "a built-in UART (amba), not a USB device; SMP only if what is wired to it speaks it")
    }

    func testDocsSerialListsEveryVendorOfTheCatalog() throws {
        let text = try String(contentsOf: ExternalTool.packageRoot.appendingPathComponent("docs/serial.md"), encoding: .utf8)
        for entry in SerialVendorCatalog.entries {
            let hex = String(entry.vendorID, radix: 16)
            let padded = String(repeating: "0", count: 4 - hex.count) + hex
            XCTAssertTrue(text.contains("`\(padded)`"), "docs/serial.md does not list \(padded) (\(entry.name))")
        }
    }
}
