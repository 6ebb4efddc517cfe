import Foundation
import XCTest

/// `smpctl targets`: what a selector or a targets file names, as text and JSON, and its errors
/// with their exit codes; serial selectors on mocked ports (umockdev).
final class TargetsCommandTests: XCTestCase {
    func testAUDPRangeAsATableAndAsJSON() async throws {
        let text = try await SMPCtl.run(["targets", "udp:127.0.0.1:14000-14001?retries=1"])
        assertSuccess(text)
        XCTAssertEqual(text.stdout, """
            NAME             TRANSPORT  CONNECTION                     SERIAL NUMBER  USB PATH  ADDRESS
            127.0.0.1:14000  udp        udp:127.0.0.1:14000?retries=1  -              -         127.0.0.1:14000
            127.0.0.1:14001  udp        udp:127.0.0.1:14001?retries=1  -              -         127.0.0.1:14001

            """)
        let json = try await SMPCtl.run(["targets", "-c", "udp:127.0.0.1:14000-14001", "--json"])
        assertSuccess(json)
        let document = try json.jsonDocument()
        XCTAssertEqual(document.keys, ["schemaVersion", "targets"])
        assertJSON(document["targets"]?[1], equals: [
            "name": "127.0.0.1:14001", "transport": "udp", "connection": "udp:127.0.0.1:14001", "serialNumber": NSNull(),
            "usbPath": NSNull(), "address": "127.0.0.1:14001",
        ], json.stdout)
    }

    func testATargetsFileWithLabelsSelectorsAndAProfileFromStandardInput() async throws {
        let folder = try FileSystemTestFolder(self)
        let environment = ["SMPCTL_CONFIG": "", "XDG_CONFIG_HOME": folder.path]
        assertSuccess(try await SMPCtl.run(
            ["profile", "add", "bench", "-c", "udp:127.0.0.1:15000", "--timeout", "5", "--retries", "4"], environment: environment))
        let file = """
            # rack
            sim    udp:127.0.0.1:14000-14001   # two simulated devices
            bench
            udp:192.0.2.7?timeout=1
            """
        let run = try await SMPCtl.run(["targets", "--targets", "-", "--json"], input: file, environment: environment)
        assertSuccess(run)
        let targets = try XCTUnwrap(try run.jsonDocument()["targets"]?.array)
        XCTAssertEqual(targets.compactMap { $0["name"]?.string }, ["sim-1", "sim-2", "bench", "192.0.2.7:1337"])
        XCTAssertEqual(targets.compactMap { $0["connection"]?.string }, [
            "udp:127.0.0.1:14000", "udp:127.0.0.1:14001", "udp:127.0.0.1:15000?timeout=5&retries=4", "udp:192.0.2.7:1337?timeout=1",
        ])
        let unknown = try await SMPCtl.run(["targets", "--targets", "-"], input: "lab\n", environment: environment)
        assertExit(unknown, 65)
        assertStderr(unknown, contains: "error: standard input:1: no profile \"lab\"", "the profiles are: bench")
    }

    func testBadFilesAndSelectorsExitWithTheirCodes() async throws {
        let folder = try FileSystemTestFolder(self)
        let bad = try folder.write("rack.txt", Array("bay-01 udp:127.0.0.1\nbay-02 udp:127.0.0.1:99999\n".utf8))
        let line = try await SMPCtl.run(["targets", "--targets", bad, "--json"])
        try assertErrorDocument(line, name: "data-error", code: 65, messageContains: ["\(bad):2: invalid connection string \"udp:127.0.0.1:99999\""])
        let twice = try folder.write("twice.txt", Array("a udp:127.0.0.1\nb udp:127.0.0.1:1337\n".utf8))
        let duplicate = try await SMPCtl.run(["targets", "--targets", twice])
        assertExit(duplicate, 65)
        assertStderr(duplicate, contains: "\"a\" (\(twice):1) and \"b\" (\(twice):2) are the same device")
        let selector = try await SMPCtl.run(["targets", "udp:127.0.0.1:1-5000"])
        assertExit(selector, 64)
        assertStderr(selector, contains: "names more than 4096 devices")
        assertExit(try await SMPCtl.run(["targets"]), 64)
    }

    func testSerialSelectorsOnMockedPorts() async throws {
        for fixture in [MockedDevices.Fixture.withUdevProperties, .sysfsOnly] {
            let run = try await MockedDevices.smpctl(["targets", "serial:vid=2fe3?baud=1000000", "--json"], fixture: fixture)
            assertSuccess(run)
            assertJSON(try run.jsonDocument()["targets"], equals: [[
                "name": "9B1D1F8C6A3E4F21", "transport": "serial", "connection": "serial:serial-number=9B1D1F8C6A3E4F21?baud=1000000",
                "serialNumber": "9B1D1F8C6A3E4F21", "usbPath": "1-2", "address": "/dev/ttyACM0",
            ]], "\(fixture)")
        }
        let star = try await MockedDevices.smpctl(["targets", "serial:*"], fixture: .withUdevProperties)
        assertSuccess(star)
        XCTAssertEqual(star.stdout.split(separator: "\n").dropFirst().map { String($0.prefix(while: { $0 != " " })) }, ["9B1D1F8C6A3E4F21", "001050123456"])
        let property = try await MockedDevices.smpctl(["targets", "serial:ID_MODEL=FT232R*", "--json"], fixture: .withUdevProperties)
        XCTAssertEqual(try property.jsonDocument()["targets"]?[0]?["address"]?.string, "/dev/ttyUSB0")
        // A path pattern is globbed on the file system too, for pseudo-terminals only: never the
        // host's controlling terminal and consoles (/dev/tty, /dev/tty0…), which are no serial ports.
        let path = try await MockedDevices.smpctl(["targets", "serial:path=/dev/tty*", "--json"], fixture: .withUdevProperties)
        assertSuccess(path)
        XCTAssertEqual(
            try path.jsonDocument()["targets"]?.array?.compactMap { $0["address"]?.string }, ["/dev/ttyACM0", "/dev/ttyACM1", "/dev/ttyS0", "/dev/ttyUSB0"])
        let none = try await MockedDevices.smpctl(["targets", "serial:vid=1915", "--json"], fixture: .withUdevProperties)
        try assertErrorDocument(none, name: "transport-error", code: 69, messageContains: ["no serial port matches \"serial:vid=1915\""])
        assertStderr(none, contains: "/dev/ttyACM0 2fe3:0100")
    }
}
