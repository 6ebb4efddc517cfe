import Foundation
@testable import SMPSerial
@testable import SMPSerialDiscovery
import XCTest

/// DEVLINKS parsing, link following (without realpath, which umockdev breaks) and the sysfs value
/// helpers of the reader.
final class DeviceLinksTests: XCTestCase {
    func testDEVLINKSIsSplitOnSpaces() {
        XCTAssertEqual(
            DeviceLinks.parse(property: "/dev/serial/by-path/pci-0:2:1.0  /dev/serial/by-id/usb-Z_1-if00 /dev/smp/1 "),
            ["/dev/serial/by-path/pci-0:2:1.0", "/dev/serial/by-id/usb-Z_1-if00", "/dev/smp/1"])
        XCTAssertEqual(DeviceLinks.parse(property: ""), [])
    }

    func testLinksAreSortedAndSplitIntoByIDAndByPath() {
        let port = SerialPortInfo(path: "/dev/ttyACM0", links: ["/dev/smp/1", "/dev/serial/by-path/b", "/dev/serial/by-id/a"])
        XCTAssertEqual(port.links, ["/dev/serial/by-id/a", "/dev/serial/by-path/b", "/dev/smp/1"])
        XCTAssertEqual(port.byIDLinks, ["/dev/serial/by-id/a"])
        XCTAssertEqual(port.byPathLinks, ["/dev/serial/by-path/b"])
        XCTAssertEqual(port.name, "ttyACM0")
    }

    func testPathsAreNormalizedLexically() {
        XCTAssertEqual(DeviceLinks.normalized("/dev/serial/by-id/../../ttyACM0"), "/dev/ttyACM0")
        XCTAssertEqual(DeviceLinks.normalized("//dev/./serial//x/"), "/dev/serial/x")
        XCTAssertEqual(DeviceLinks.normalized("/../.."), "/")
    }

    func testRelativeAndAbsoluteLinkChainsLeadToTheSameDevice() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-links-\(UUID().uuidString)")
        let byID = folder.appendingPathComponent("serial/by-id")
        try FileManager.default.createDirectory(at: byID, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let node = folder.appendingPathComponent("ttyACM0").path
        let other = folder.appendingPathComponent("ttyACM1").path
        XCTAssertTrue(FileManager.default.createFile(atPath: node, contents: nil))
        XCTAssertTrue(FileManager.default.createFile(atPath: other, contents: nil))
        let relative = byID.appendingPathComponent("usb-Z_1-if00").path
        let absolute = folder.appendingPathComponent("smp-1").path
        try FileManager.default.createSymbolicLink(atPath: relative, withDestinationPath: "../../ttyACM0")
        try FileManager.default.createSymbolicLink(atPath: absolute, withDestinationPath: relative)

        XCTAssertEqual(DeviceLinks.followingLinks(relative), node)
        XCTAssertEqual(DeviceLinks.followingLinks(absolute), node)
        XCTAssertTrue(DeviceLinks.sameDevice(absolute, node))
        XCTAssertFalse(DeviceLinks.sameDevice(relative, other))
        XCTAssertFalse(DeviceLinks.sameDevice(folder.appendingPathComponent("missing").path, node))

        let port = SerialPortInfo(path: node)
        XCTAssertEqual(try SerialPortSelector.path(absolute).resolve(in: [SerialPortInfo(path: other), port]), port)
    }

    func testALinkLoopEnds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-loop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a").path, b = folder.appendingPathComponent("b").path
        try FileManager.default.createSymbolicLink(atPath: a, withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: b, withDestinationPath: "a")
        XCTAssertFalse(DeviceLinks.sameDevice(a, "/dev/null"))
    }

    func testCharacterDevicesCompareByDeviceNumber() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-rdev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A link elsewhere to /dev/null is followed; the device number would match even if not.
        let link = folder.appendingPathComponent("null").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        XCTAssertTrue(DeviceLinks.sameDevice(link, "/dev/null"))
        XCTAssertFalse(DeviceLinks.sameDevice("/dev/zero", "/dev/null"))
    }

    func testSysfsValueHelpers() {
        XCTAssertEqual(SerialPortReader.hex16("2fe3"), 0x2FE3)
        XCTAssertEqual(SerialPortReader.hex16("0100"), 0x0100)
        XCTAssertNil(SerialPortReader.hex16("+fe3"))
        XCTAssertNil(SerialPortReader.hex16("12345"))
        XCTAssertNil(SerialPortReader.hex16(""))
        XCTAssertNil(SerialPortReader.hex16(nil))
        XCTAssertEqual(SerialPortReader.udevDecoded("FT232R\\x20USB\\x20UART"), "FT232R USB UART")
        XCTAssertEqual(SerialPortReader.udevDecoded("Caf\\xc3\\xa9\\x20"), "Café")
        XCTAssertEqual(SerialPortReader.udevDecoded("a\\x2"), "a\\x2")
        XCTAssertNil(SerialPortReader.udevDecoded("\\x20"))
        XCTAssertEqual(" 2\n".trimmingWhiteSpace, "2")
    }
}
