import SMPFleet
import SMPKit
import XCTest

final class DeviceTargetTests: XCTestCase {
    func testATargetIsNamedByItsLabelElseSerialNumberElseAddressElseConnection() throws {
        let connection = try ConnectionString(parsing: "serial:serial-number=E661A4")
        let identity = DeviceIdentity(serialNumber: "E661A4", usbPath: "1-1.2", address: "/dev/ttyACM0")
        XCTAssertEqual(DeviceTarget(name: "bay-01", connection: connection, identity: identity).name, "bay-01")
        XCTAssertEqual(DeviceTarget(connection: connection, identity: identity).name, "E661A4")
        XCTAssertEqual(DeviceTarget(connection: connection, identity: DeviceIdentity(address: "/dev/ttyACM0")).name, "/dev/ttyACM0")
        XCTAssertEqual(DeviceTarget(connection: try ConnectionString(parsing: "udp:127.0.0.1:1337")).name, "udp:127.0.0.1:1337")
    }
}
