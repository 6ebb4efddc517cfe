import SMPSerial
import SMPSerialDiscovery
import XCTest

/// Selector matching, resolution and its error texts, on synthetic ports.
final class SerialPortSelectorTests: XCTestCase {
    private typealias Ports = SyntheticPorts

    func testAPathMatchesTheNodeAndEachOfItsLinks() throws {
        XCTAssertEqual(try SerialPortSelector.path("/dev/ttyACM0").resolve(in: Ports.all), Ports.zephyr)
        for link in Ports.zephyr.links {
            XCTAssertEqual(try SerialPortSelector.path(link).resolve(in: Ports.all), Ports.zephyr, link)
        }
        XCTAssertEqual(try SerialPortSelector.path("/dev/serial/by-path/pnp-00:00").resolve(in: Ports.all), Ports.uart)
        XCTAssertFalse(SerialPortSelector.path("/dev/ttyACM9").matches(Ports.zephyr))
    }

    func testUSBMatchesVendorAndProductAndOptionallyTheSerialNumberInAnyCase() {
        let any = SerialPortSelector.usb(vendorID: 0x2FE3, productID: 0x0100, serialNumber: nil)
        XCTAssertEqual(Ports.all.filter(any.matches), [Ports.zephyr])
        let exact = SerialPortSelector.usb(vendorID: 0x2FE3, productID: 0x0100, serialNumber: "9b1d1f8c6a3e4f21")
        XCTAssertTrue(exact.matches(Ports.zephyr))
        XCTAssertFalse(SerialPortSelector.usb(vendorID: 0x2FE3, productID: 0x0100, serialNumber: "9B1D").matches(Ports.zephyr))
        XCTAssertFalse(SerialPortSelector.usb(vendorID: 0x2FE3, productID: 0x0001, serialNumber: nil).matches(Ports.zephyr))
        XCTAssertFalse(any.matches(Ports.uart))
    }

    func testSerialNumberMatchesEveryInterfaceOfTheDevice() {
        XCTAssertEqual(Ports.all.filter(SerialPortSelector.serialNumber("A50285BI").matches), [Ports.ftdi])
        XCTAssertEqual(Ports.all.filter(SerialPortSelector.serialNumber("001050123456").matches), [Ports.jLinkVCOM0, Ports.jLinkVCOM1])
        XCTAssertFalse(SerialPortSelector.serialNumber("x").matches(Ports.uart))
    }

    func testAutoMatchesTheLikelySMPDevicesOnly() {
        XCTAssertEqual(Ports.all.filter(SerialPortSelector.auto.matches), [Ports.zephyr, Ports.jLinkVCOM0, Ports.jLinkVCOM1])
        XCTAssertEqual(try SerialPortSelector.auto.resolve(in: [Ports.ftdi, Ports.zephyr, Ports.uart]), Ports.zephyr)
    }

    func testNoMatchNamesTheSelectorAndListsThePortsWithASelectorEach() {
        let selector = SerialPortSelector.usb(vendorID: 0xDEAD, productID: 0xBEEF, serialNumber: nil)
        XCTAssertThrowsError(try selector.resolve(in: [Ports.zephyr, Ports.uart])) { error in
            guard let error = error as? SerialPortDiscoveryError else { return XCTFail("\(error)") }
            XCTAssertEqual(error, .noMatch(selector, candidates: [Ports.zephyr, Ports.uart]))
            XCTAssertEqual(error.message, "no serial port matches usb=dead:beef")
            XCTAssertEqual(error.hint, """
                serial ports present:
                  usb=2fe3:0100:9B1D1F8C6A3E4F21  (/dev/ttyACM0 2fe3:0100 ZEPHYR USB-DEV serial 9B1D1F8C6A3E4F21 interface 0)
                  /dev/ttyS0 (pnp, serial)
                """)
            XCTAssertEqual(error.description, error.message + "\n" + (error.hint ?? ""))
            XCTAssertEqual(error.transportError.kind, .notFound)
        }
    }

    func testNoLikelyDeviceForAutoSaysWhatAutoLooksFor() {
        XCTAssertThrowsError(try SerialPortSelector.auto.resolve(in: [Ports.ftdi])) { error in
            guard let error = error as? SerialPortDiscoveryError else { return XCTFail("\(error)") }
            XCTAssertEqual(
                error.message, "no likely SMP device is attached (a Zephyr 2fe3, Nordic 1915 or SEGGER J-Link 1366 USB serial port)")
            XCTAssertEqual(error.hint, """
                name one of them (ports without a known SMP vendor ID may still speak SMP):
                  usb=0403:6001:A50285BI  (/dev/ttyUSB0 0403:6001 FTDI FT232R USB UART serial A50285BI interface 0)
                """)
        }
    }

    func testNoPortsAtAllSuggestsCheckingTheCable() {
        XCTAssertThrowsError(try SerialPortSelector.serialNumber("X").resolve(in: [])) { error in
            XCTAssertEqual(
                (error as? SerialPortDiscoveryError)?.hint,
                "no serial ports were found: check the cable, and that the device enumerates (dmesg | tail)")
        }
    }

    func testSeveralMatchesForAutoListThemWithTheUSBSerialForm() {
        let ports = [Ports.zephyr, Ports.secondZephyr, Ports.ftdi]
        XCTAssertThrowsError(try SerialPortSelector.auto.resolve(in: ports)) { error in
            guard let error = error as? SerialPortDiscoveryError else { return XCTFail("\(error)") }
            XCTAssertEqual(error, .ambiguous(.auto, matches: [Ports.zephyr, Ports.secondZephyr]))
            XCTAssertEqual(error.message, "2 serial ports match auto; name one")
            XCTAssertEqual(error.hint, """
                name one with usb=VID:PID:SERIAL, or by path:
                  usb=2fe3:0100:9B1D1F8C6A3E4F21  (/dev/ttyACM0 2fe3:0100 ZEPHYR USB-DEV serial 9B1D1F8C6A3E4F21 interface 0)
                  usb=2fe3:0100:77AA  (/dev/ttyACM4 2fe3:0100 ZEPHYR USB-DEV serial 77AA interface 0)
                """)
        }
    }

    func testSeveralMatchesForUSBWithoutSerialNumberSuggestTheSerialForm() {
        let selector = SerialPortSelector.usb(vendorID: 0x2FE3, productID: 0x0100, serialNumber: nil)
        XCTAssertThrowsError(try selector.resolve(in: [Ports.zephyr, Ports.secondZephyr])) { error in
            guard let error = error as? SerialPortDiscoveryError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.message, "2 serial ports match usb=2fe3:0100; name one")
            XCTAssertTrue(error.hint?.contains("usb=2fe3:0100:77AA") == true, error.description)
        }
    }

    func testInterfacesSharingASerialNumberAreNamedByTheirByIDLinks() {
        XCTAssertThrowsError(try SerialPortSelector.serialNumber("001050123456").resolve(in: Ports.all)) { error in
            XCTAssertEqual((error as? SerialPortDiscoveryError)?.hint, """
                name one with usb=VID:PID:SERIAL, or by path:
                  /dev/serial/by-id/usb-SEGGER_J-Link_001050123456-if00  (/dev/ttyACM1 1366:1051 SEGGER J-Link serial 001050123456 interface 0)
                  /dev/serial/by-id/usb-SEGGER_J-Link_001050123456-if02  (/dev/ttyACM2 1366:1051 SEGGER J-Link serial 001050123456 interface 2)
                """)
        }
    }

    func testNamingPicksTheShortestUniqueSelector() {
        XCTAssertEqual(
            SerialPortSelector.naming(Ports.zephyr, among: Ports.all),
            .usb(vendorID: 0x2FE3, productID: 0x0100, serialNumber: "9B1D1F8C6A3E4F21"))
        XCTAssertEqual(SerialPortSelector.naming(Ports.jLinkVCOM1, among: Ports.all), .path("/dev/serial/by-id/usb-SEGGER_J-Link_001050123456-if02"))
        XCTAssertEqual(SerialPortSelector.naming(Ports.uart, among: Ports.all), .path("/dev/ttyS0"))
    }

    func testIdentityFindsTheSameDeviceUnderAnotherNodeName() throws {
        let identity = SerialPortSelector.identity(of: Ports.jLinkVCOM1)
        XCTAssertEqual(identity, .usbInterface(serialNumber: "001050123456", interfaceNumber: 2))
        var renumbered = Ports.jLinkVCOM1
        renumbered.path = "/dev/ttyACM7"
        // The bootloader may enumerate with another product ID: the identity ignores it.
        renumbered.usb?.productID = 0x1015
        XCTAssertEqual(try identity.resolve(in: [Ports.jLinkVCOM0, renumbered, Ports.zephyr]), renumbered)

        var noInterface = Ports.ftdi
        noInterface.usb?.interfaceNumber = nil
        XCTAssertEqual(SerialPortSelector.identity(of: noInterface), .serialNumber("A50285BI"))
        XCTAssertEqual(SerialPortSelector.identity(of: Ports.uart), .path("/dev/ttyS0"))
    }

    func testDescriptionsAreTheConnectionStringForms() {
        XCTAssertEqual(SerialPortSelector.path("/dev/ttyACM0").description, "/dev/ttyACM0")
        XCTAssertEqual(SerialPortSelector.usb(vendorID: 0x2FE3, productID: 0x100, serialNumber: nil).description, "usb=2fe3:0100")
        XCTAssertEqual(SerialPortSelector.usb(vendorID: 0x1366, productID: 0x1051, serialNumber: "0010").description, "usb=1366:1051:0010")
        XCTAssertEqual(SerialPortSelector.serialNumber("XYZ").description, "serial-number=XYZ")
        XCTAssertEqual(SerialPortSelector.usbInterface(serialNumber: "XYZ", interfaceNumber: 2).description, "serial-number=XYZ (interface 2)")
        XCTAssertEqual(SerialPortSelector.auto.description, "auto")
        let filter = SerialPortFilter(conditions: [
            .init(key: "vid", glob: GlobPattern("1366", ignoringCase: true)), .init(key: "serial", glob: GlobPattern("0010*", ignoringCase: true)),
        ])
        XCTAssertEqual(SerialPortSelector.matching(filter).description, "vid=1366,serial=0010*")
    }

    func testAFilterMatchesEveryPortPassingAllItsConditions() {
        let jLink = SerialPortSelector.matching(SerialPortFilter(conditions: [.init(key: "vid", glob: GlobPattern("1366", ignoringCase: true))]))
        XCTAssertEqual(Ports.all.filter(jLink.matches), [Ports.jLinkVCOM0, Ports.jLinkVCOM1])
        XCTAssertThrowsError(try jLink.resolve(in: Ports.all)) { error in
            guard case .ambiguous(_, let matches) = error as? SerialPortDiscoveryError else { return XCTFail("\(error)") }
            XCTAssertEqual(matches.count, 2)
        }
        let byLink = SerialPortSelector.matching(SerialPortFilter(conditions: [.init(key: "path", glob: GlobPattern("/dev/serial/by-id/*-if02", ignoringCase: false))]))
        XCTAssertEqual(try byLink.resolve(in: Ports.all), Ports.jLinkVCOM1)
    }

    func testTimeoutAndUnavailableMessages() {
        let timedOut = SerialPortDiscoveryError.timedOut(.serialNumber("XYZ"), after: .milliseconds(500), candidates: [Ports.uart])
        XCTAssertEqual(timedOut.message, "no serial port matching serial-number=XYZ appeared within 0.5 s")
        XCTAssertEqual(timedOut.hint, "serial ports present:\n  /dev/ttyS0 (pnp, serial)")
        XCTAssertEqual(
            SerialPortDiscoveryError.timedOut(.auto, after: .seconds(10), candidates: []).message,
            "no serial port matching auto appeared within 10 s")
        let unavailable = SerialPortDiscoveryError.udevUnavailable("libudev could not create a context (udev_new failed)")
        XCTAssertEqual(unavailable.transportError.kind, .unavailable)
        XCTAssertEqual(unavailable.hint, "name the port by its path instead, e.g. serial:/dev/ttyACM0")
    }
}
