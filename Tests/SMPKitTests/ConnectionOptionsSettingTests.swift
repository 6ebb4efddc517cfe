import XCTest
import SMPKit

/// Options set one at a time, as a config file or another program sets them
/// (`ConnectionOptions.set(_:to:transport:)`), with the grammar's names, ranges and errors.
final class ConnectionOptionsSettingTests: XCTestCase {
    func testEachTransportNamesItsOptions() {
        XCTAssertEqual(ConnectionOptions.names(for: .udp).prefix(4), ["timeout", "retries", "mtu", "buf-size"])
        XCTAssertTrue(ConnectionOptions.names(for: .serial).contains("baud"))
        XCTAssertFalse(ConnectionOptions.names(for: .serial).contains("pair"))
        XCTAssertEqual(Set(ConnectionOptions.allNames).count, ConnectionOptions.allNames.count, "each name once")
    }

    func testSettingAnOptionIsParsingIt() throws {
        var options = ConnectionOptions()
        try options.set("baud", to: "115200", transport: .serial)
        try options.set("MTU", to: "128", transport: .udp)
        try options.set("flow", to: "rtscts", transport: .serial)
        XCTAssertEqual(options.baud, 115_200)
        XCTAssertEqual(options.mtu, 128)
        XCTAssertEqual(options.hardwareFlowControl, true)
        try options.set("baud", to: "9600", transport: .serial)
        XCTAssertEqual(options.baud, 9600, "a later value replaces an earlier one")
        XCTAssertEqual(options.items.map(\.name), ["mtu", "baud", "flow"])
        XCTAssertEqual(options, try ConnectionString(parsing: "serial:/dev/ttyACM0?mtu=128&baud=9600&flow=rtscts").options)
    }

    func testABadValueOrAnotherTransportsOptionIsRefused() {
        var options = ConnectionOptions()
        XCTAssertThrowsError(try options.set("mtu", to: "100", transport: .udp)) { error in
            let error = error as? ConnectionStringError
            XCTAssertEqual(error?.problem, "expected bytes from 128 to 65535")
            XCTAssertEqual(error?.hint, "mtu: bytes, 128–65535")
        }
        XCTAssertThrowsError(try options.set("pair", to: "1", transport: .serial)) { error in
            XCTAssertEqual(
                (error as? ConnectionStringError)?.problem,
                "unknown option for serial; serial takes timeout, retries, mtu, baud, line, flow, framing, burst, gap, buf-size, touch")
        }
        XCTAssertEqual(options, ConnectionOptions(), "nothing set by a refused value")
    }
}
