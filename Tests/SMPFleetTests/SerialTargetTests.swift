import SMPFleet
import SMPKit
import SMPSerialDiscovery
import XCTest

/// Serial selectors against a list of ports (what discovery returns; the CLI tests run the real
/// discovery under umockdev).
final class SerialTargetTests: XCTestCase {
    private static func usbPort(
        _ name: String, vid: UInt16, pid: UInt16, serial: String?, usbPath: String, interface: Int = 0, model: String = "USB-DEV"
    ) -> SerialPortInfo {
        SerialPortInfo(
            path: "/dev/\(name)", links: serial.map { ["/dev/serial/by-id/usb-ZEPHYR_\(model)_\($0)-if0\(interface)"] } ?? [], bus: "usb",
            driver: "cdc_acm", usb: .init(vendorID: vid, productID: pid, manufacturer: "ZEPHYR", product: model, serialNumber: serial, interfaceNumber: interface),
            usbPath: usbPath, properties: ["ID_MODEL": model, "ID_BUS": "usb"])
    }

    private let ports = [
        usbPort("ttyACM0", vid: 0x2fe3, pid: 0x0100, serial: "E661A4D1", usbPath: "1-1.2", model: "Zephyr_Board"),
        usbPort("ttyACM1", vid: 0x2fe3, pid: 0x0100, serial: "E661B7C2", usbPath: "1-1.3", model: "Zephyr_Board"),
        usbPort("ttyACM2", vid: 0x2fe3, pid: 0x0004, serial: nil, usbPath: "1-1.4"),
        usbPort("ttyUSB0", vid: 0x0403, pid: 0x6001, serial: "A50285BI", usbPath: "1-4", model: "FT232R"),
        SerialPortInfo(path: "/dev/ttyS0", bus: "pnp", driver: "serial"),
    ]

    private func resolve(_ text: String, label: String? = nil) throws -> [DeviceTarget] {
        try TargetSelector(parsing: text).resolve(among: ports, label: label)
    }

    func testStarIsEveryLikelySMPDeviceReachedByItsSerialNumber() throws {
        let found = try resolve("serial:*?baud=1000000")
        XCTAssertEqual(found.map(\.connection.description), [
            "serial:serial-number=E661A4D1?baud=1000000", "serial:serial-number=E661B7C2?baud=1000000", "serial:/dev/ttyACM2?baud=1000000",
        ])
        XCTAssertEqual(found.map(\.name), ["E661A4D1", "E661B7C2", "/dev/ttyACM2"])
        XCTAssertEqual(found[0].identity, DeviceIdentity(serialNumber: "E661A4D1", usbPath: "1-1.2", address: "/dev/ttyACM0"))
        XCTAssertEqual(found[2].identity, DeviceIdentity(serialNumber: nil, usbPath: "1-1.4", address: "/dev/ttyACM2"))
    }

    func testFiltersAllMustMatch() throws {
        XCTAssertEqual(try resolve("serial:vid=2fe3").count, 3)
        XCTAssertEqual(try resolve("serial:VID=2FE3,pid=0100").map(\.identity.address), ["/dev/ttyACM0", "/dev/ttyACM1"])
        XCTAssertEqual(try resolve("serial:serial=e661b*").map(\.identity.serialNumber), ["E661B7C2"], "serial numbers ignore case")
        XCTAssertEqual(try resolve("serial:serial-number=E661*").count, 2)
        XCTAssertEqual(try resolve("serial:path=/dev/ttyUSB*").map(\.identity.serialNumber), ["A50285BI"], "any port, not only likely SMP ones")
        XCTAssertEqual(try resolve("serial:/dev/ttyACM?").count, 3, "a ? that no option follows is a pattern")
        XCTAssertEqual(try resolve("serial:path=/dev/serial/by-id/*FT232R*").map(\.identity.address), ["/dev/ttyUSB0"], "links match too")
        XCTAssertEqual(try resolve("serial:ID_MODEL=Zephyr_*").count, 2, "udev properties")
        XCTAssertEqual(try resolve("serial:usb-path=1-1.?").count, 3)
        XCTAssertThrowsError(try resolve("serial:vid=2fe3,ID_MODEL=zephyr_*"), "udev properties are case-sensitive") { error in
            let error = error as? TargetSelectionError
            XCTAssertEqual(error?.kind, .notFound)
            XCTAssertEqual(error?.message, "no serial port matches \"serial:vid=2fe3,ID_MODEL=zephyr_*\"")
        }
    }

    func testLabelsNumberSeveralMatches() throws {
        XCTAssertEqual(try resolve("serial:vid=2fe3,pid=0100", label: "bay").map(\.name), ["bay-1", "bay-2"])
        XCTAssertEqual(try resolve("serial:serial=E661A4D1", label: "bay").map(\.name), ["bay"])
    }

    func testInterfacesSharingASerialNumberAreReachedByTheirLinks() throws {
        let dual = [
            Self.usbPort("ttyACM0", vid: 0x2fe3, pid: 0x0100, serial: "E661A4D1", usbPath: "1-1.2", interface: 0),
            Self.usbPort("ttyACM1", vid: 0x2fe3, pid: 0x0100, serial: "E661A4D1", usbPath: "1-1.2", interface: 2),
        ]
        let found = try TargetSelector(parsing: "serial:path=/dev/ttyACM1").resolve(among: dual)
        XCTAssertEqual(found.map(\.connection.description), ["serial:/dev/serial/by-id/usb-ZEPHYR_USB-DEV_E661A4D1-if02"])
        let both = try TargetSelector(parsing: "serial:*").resolve(among: dual)
        XCTAssertThrowsError(try TargetList.checkDistinct(both), "two ports of one device are one device") { error in
            XCTAssertTrue("\(error)".contains("serial number E661A4D1"), "\(error)")
        }
    }

    func testNothingMatchingIsNotFoundListingThePorts() throws {
        XCTAssertThrowsError(try resolve("serial:vid=1915")) { error in
            let error = error as? TargetSelectionError
            XCTAssertEqual(error?.kind, .notFound)
            XCTAssertEqual(error?.message, "no serial port matches \"serial:vid=1915\"")
            XCTAssertTrue(error?.hint?.contains("/dev/ttyUSB0 0403:6001") == true, error?.hint ?? "")
        }
        XCTAssertThrowsError(try TargetSelector(parsing: "serial:*").resolve(among: [])) { error in
            let error = error as? TargetSelectionError
            XCTAssertEqual(error?.kind, .notFound)
            XCTAssertTrue(error?.message.contains("no likely SMP device") == true, error?.message ?? "")
            XCTAssertTrue(error?.hint?.contains("no serial ports were found") == true, error?.hint ?? "")
        }
    }
}
