import Foundation
import SMPTestSupport
import XCTest

/// `smpctl ports` on mocked devices (umockdev): every field, with and without udevd's properties,
/// selectors, `--wait` and `--probe`.
final class PortsCommandTests: XCTestCase {
    private static let zephyrByID = "/dev/serial/by-id/usb-ZEPHYR_USB-DEV_9B1D1F8C6A3E4F21-if00"
    private static let jLinkByID = "/dev/serial/by-id/usb-SEGGER_J-Link_001050123456-if00"
    private static let ftdiByID = "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"

    /// The four ports of both fixtures; ttyS1 (an unused 8250 slot), console, tty0 and ptmx are
    /// never listed. `smpLinks` says whether the /dev/smp links of udev/60-smpctl.rules exist.
    private static func expectedPorts(smpLinks: Bool) -> [[String: Any]] {
        func usb(_ vendor: String, _ product: String, _ manufacturer: String, _ name: String, _ serial: String, _ bcd: String) -> [String: Any] {
            ["vendorId": vendor, "productId": product, "manufacturer": manufacturer, "product": name, "serialNumber": serial,
             "bcdDevice": bcd, "interface": 0]
        }
        func port(
            _ name: String, byID: [String], byPath: [String], smp: [String], bus: String, driver: String, usb: Any, likely: Bool,
            reason: String, connection: String
        ) -> [String: Any] {
            ["path": "/dev/\(name)", "name": name, "connection": connection, "byId": byID, "byPath": byPath,
             "links": (byID + byPath + (smpLinks ? smp : [])).sorted(), "bus": bus, "driver": driver, "usb": usb,
             "likelySMP": likely, "reason": reason, "probe": NSNull()]
        }
        return [
            port(
                "ttyACM0", byID: [zephyrByID], byPath: ["/dev/serial/by-path/pci-0000:00:14.0-usb-0:2:1.0"],
                smp: ["/dev/smp/9B1D1F8C6A3E4F21"], bus: "usb", driver: "cdc_acm",
                usb: usb("2fe3", "0100", "ZEPHYR", "USB-DEV", "9B1D1F8C6A3E4F21", "0401"), likely: true,
                reason: "Zephyr Project (2fe3): Zephyr's own USB vendor ID, used by Zephyr applications that keep the default USB IDs; "
                    + "USB CDC ACM is Zephyr's usual SMP transport",
                connection: "serial:usb=2fe3:0100:9B1D1F8C6A3E4F21"),
            port(
                "ttyACM1", byID: [jLinkByID], byPath: ["/dev/serial/by-path/pci-0000:00:14.0-usb-0:3:1.0"],
                smp: ["/dev/smp/001050123456"], bus: "usb", driver: "cdc_acm",
                usb: usb("1366", "1051", "SEGGER", "J-Link", "001050123456", "0100"), likely: true,
                reason: "SEGGER J-Link (1366): the J-Link OB on Nordic development kits passes the target's UART through as a CDC ACM "
                    + "port, where Zephyr and nRF Connect SDK applications serve SMP",
                connection: "serial:usb=1366:1051:001050123456"),
            port(
                "ttyS0", byID: [], byPath: ["/dev/serial/by-path/pnp-00:00"], smp: [], bus: "pnp", driver: "serial", usb: NSNull(),
                likely: false, reason: "a built-in UART (pnp), not a USB device; SMP only if what is wired to it speaks it",
                connection: "serial:/dev/ttyS0"),
            port(
                "ttyUSB0", byID: [ftdiByID], byPath: ["/dev/serial/by-path/pci-0000:00:14.0-usb-0:4:1.0-port0"], smp: [],
                bus: "usb", driver: "ftdi_sio", usb: usb("0403", "6001", "FTDI", "FT232R USB UART", "A50285BI", "0600"), likely: false,
                reason: "FTDI USB-UART bridge (0403): a general-purpose USB-UART bridge; the board behind it may or may not speak SMP",
                connection: "serial:usb=0403:6001:A50285BI"),
        ]
    }

    private func assertAllPorts(_ fixture: MockedDevices.Fixture, smpLinks: Bool) async throws {
        let run = try await MockedDevices.smpctl(["ports", "--all", "--json"], fixture: fixture)
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document.keys, ["ports", "schemaVersion"])
        let ports = try XCTUnwrap(document["ports"]?.array)
        let expected = Self.expectedPorts(smpLinks: smpLinks)
        XCTAssertEqual(ports.map { $0["path"]?.string ?? "?" }, expected.map { $0["path"] as? String ?? "" })
        for (port, expectedPort) in zip(ports, expected) {
            assertJSON(port, equals: expectedPort, "\(fixture): \(expectedPort["path"] ?? "")")
        }
    }

    func testEveryFieldWithUdevProperties() async throws {
        try await assertAllPorts(.withUdevProperties, smpLinks: true)
    }

    /// No ID_* properties and no DEVLINKS, as without udevd: the same answers from sysfs, and the
    /// links from scanning /dev/serial/by-id and by-path.
    func testEveryFieldFromSysfsAlone() async throws {
        try await assertAllPorts(.sysfsOnly, smpLinks: false)
    }

    func testByDefaultOnlyLikelySMPDevicesAreListed() async throws {
        let json = try await MockedDevices.smpctl(["ports", "--json"], fixture: .withUdevProperties)
        assertSuccess(json)
        XCTAssertEqual(try json.jsonDocument()["ports"]?.array?.compactMap { $0["path"]?.string }, ["/dev/ttyACM0", "/dev/ttyACM1"])

        let text = try await MockedDevices.smpctl(["ports"], fixture: .withUdevProperties)
        assertSuccess(text)
        XCTAssertEqual(text.stdout, """
            PATH          VID:PID    DEVICE          SERIAL            IF  DRIVER   SMP
            /dev/ttyACM0  2fe3:0100  ZEPHYR USB-DEV  9B1D1F8C6A3E4F21  00  cdc_acm  yes
            /dev/ttyACM1  1366:1051  SEGGER J-Link   001050123456      00  cdc_acm  yes

            PATH          BY-ID LINK
            /dev/ttyACM0  \(Self.zephyrByID)
            /dev/ttyACM1  \(Self.jLinkByID)

            2 more serial ports are not known SMP devices: --all lists them, --all --probe asks them
            pseudo-terminals are listed only when named: smpctl ports /dev/pts/N

            """)
    }

    func testTheTableWithAll() async throws {
        let run = try await MockedDevices.smpctl(["ports", "--all"], fixture: .sysfsOnly)
        assertSuccess(run)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines.prefix(5)), [
            "PATH          VID:PID    DEVICE                SERIAL            IF  DRIVER    SMP",
            "/dev/ttyACM0  2fe3:0100  ZEPHYR USB-DEV        9B1D1F8C6A3E4F21  00  cdc_acm   yes",
            "/dev/ttyACM1  1366:1051  SEGGER J-Link         001050123456      00  cdc_acm   yes",
            "/dev/ttyS0    -          (pnp)                 -                 -   serial    -",
            "/dev/ttyUSB0  0403:6001  FTDI FT232R USB UART  A50285BI          00  ftdi_sio  -",
        ])
        XCTAssertTrue(run.stdout.contains("/dev/ttyUSB0  \(Self.ftdiByID)"), run.description)
        XCTAssertFalse(run.stdout.contains("more serial port"), run.description)
    }

    func testASelectorListsTheMatchingPortsOnly() async throws {
        let run = try await MockedDevices.smpctl(["ports", "usb=0403:6001", "--json"], fixture: .withUdevProperties)
        assertSuccess(run)
        XCTAssertEqual(try run.jsonDocument()["ports"]?.array?.compactMap { $0["path"]?.string }, ["/dev/ttyUSB0"])

        let none = try await MockedDevices.smpctl(["ports", "usb=dead:beef", "--json"], fixture: .withUdevProperties)
        let error = try assertErrorDocument(none, name: "transport-error", code: 69, messageContains: ["no serial port matches usb=dead:beef"])
        XCTAssertTrue(error["hint"]?.string?.contains("usb=0403:6001:A50285BI  (/dev/ttyUSB0") == true, "\(error)")

        let malformed = try await MockedDevices.smpctl(["ports", "usb=zz"], fixture: .withUdevProperties)
        assertExit(malformed, 64)
        assertStderr(malformed, contains: "usb=VID:PID")
    }

    func testWaitFindsAnAttachedDeviceAtOnce() async throws {
        let run = try await MockedDevices.smpctl(["ports", "--wait", "usb=2fe3:0100", "--json", "-v"], fixture: .withUdevProperties)
        assertExit(run, 0)
        let document = try run.jsonDocument()
        XCTAssertEqual(document.keys, ["ports", "schemaVersion", "wait"])
        assertJSON(document["ports"]?[0], equals: Self.expectedPorts(smpLinks: true)[0], "the Zephyr device")
        XCTAssertEqual(document["wait"]?["foundBy"]?.string, "present")
        assertStderr(run, contains: "/dev/ttyACM0: it was attached already")
    }

    func testWaitForAutoWithTwoLikelyDevicesIsAmbiguous() async throws {
        let run = try await MockedDevices.smpctl(["ports", "--wait", "--json"], fixture: .withUdevProperties)
        let error = try assertErrorDocument(run, name: "usage-error", code: 64, messageContains: ["2 serial ports match auto; name one"])
        XCTAssertEqual(error["hint"]?.string, """
            name one with usb=VID:PID:SERIAL, or by path:
              usb=2fe3:0100:9B1D1F8C6A3E4F21  (/dev/ttyACM0 2fe3:0100 ZEPHYR USB-DEV serial 9B1D1F8C6A3E4F21 interface 0)
              usb=1366:1051:001050123456  (/dev/ttyACM1 1366:1051 SEGGER J-Link serial 001050123456 interface 0)
            """)
    }

    /// With udevd's DEVLINKS the links are matched by name, even /dev/smp ones.
    func testByIDAndSMPLinksResolveWithProperties() async throws {
        for (link, path) in [(Self.jLinkByID, "/dev/ttyACM1"), ("/dev/smp/9B1D1F8C6A3E4F21", "/dev/ttyACM0")] {
            let run = try await MockedDevices.smpctl(["ports", "--wait", link, "--json"], fixture: .withUdevProperties)
            assertExit(run, 0)
            XCTAssertEqual(try run.jsonDocument()["ports"]?[0]?["path"]?.string, path, link)
        }
    }

    /// Without DEVLINKS the link on disk is followed to its node.
    func testByIDLinksResolveFromSysfsAlone() async throws {
        let run = try await MockedDevices.smpctl(["ports", "--wait", "serial:" + Self.ftdiByID, "--json"], fixture: .sysfsOnly)
        assertExit(run, 0)
        XCTAssertEqual(try run.jsonDocument()["ports"]?[0]?["path"]?.string, "/dev/ttyUSB0")
    }

    func testWaitTimesOutWithExitCode75() async throws {
        let run = try await MockedDevices.smpctl(
            ["ports", "--wait", "serial-number=NOPE", "--wait-timeout", "0.5", "--json"], fixture: .withUdevProperties)
        let error = try assertErrorDocument(
            run, name: "timeout", code: 75, messageContains: ["no serial port matching serial-number=NOPE appeared within 0.5 s"])
        XCTAssertTrue(error["hint"]?.string?.hasPrefix("serial ports present:\n") == true, "\(error)")
    }

    /// The mocked ttys are ptys nobody answers on, so every probe is "silent" (PortsHotplugTests
    /// has a mocked device that answers).
    func testProbeReportsEveryListedPort() async throws {
        let run = try await MockedDevices.smpctl(["ports", "--probe", "--probe-timeout", "0.5", "--json"], fixture: .withUdevProperties)
        assertExit(run, 0)
        let ports = try XCTUnwrap(try run.jsonDocument()["ports"]?.array)
        XCTAssertEqual(ports.count, 2)
        for port in ports {
            let probe = try XCTUnwrap(port["probe"], "\(port)")
            XCTAssertEqual(probe.keys, ["message", "result", "roundTripMilliseconds"])
            let result = try XCTUnwrap(probe["result"]?.string)
            XCTAssertEqual(result, "silent", "\(probe)")
            XCTAssertTrue(probe["roundTripMilliseconds"]?.isNull == true)
        }
    }

    /// Ctrl-C ends the wait at once, with exit code 130 and the error document (no umockdev
    /// needed: the awaited device exists nowhere).
    func testCtrlCEndsTheWaitWith130() async throws {
        let process = try BackgroundProcess(smpctl: ["ports", "--wait", "serial-number=smpctl-test-none", "--json"])
        addTeardownBlock { process.stop() }
        try await Task.sleep(for: .milliseconds(500))
        XCTAssertTrue(process.isRunning, "the wait ended early\n\(process.stdout)\(process.stderr)")
        process.send(SIGINT)
        let status = await process.waitForExit(timeout: 5)
        XCTAssertEqual(status, 130, "\(process.stdout)\(process.stderr)")
        XCTAssertTrue(process.stdout.hasPrefix("{\"schemaVersion\":1,\"error\":{\"code\":130,\"name\":\"interrupted\""), process.stdout)
    }

    func testHelpDescribesTheOptions() async throws {
        let run = try await SMPCtl.run(["ports", "--help"])
        assertSuccess(run)
        for fragment in ["USAGE: smpctl ports", "--all", "--probe", "--wait", "--wait-timeout <seconds>", "--poll-interval", "--json", "usb=VID:PID:SERIAL"] {
            XCTAssertTrue(run.stdout.contains(fragment), "ports --help lacks \(fragment)")
        }
    }
}
