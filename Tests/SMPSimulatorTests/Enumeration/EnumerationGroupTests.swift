import CBOR
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// The simulated enumeration group (docs/protocol/groups.md §11) reports the groups the device really has.
final class EnumerationGroupTests: XCTestCase {
    private func request(_ command: UInt8, _ payload: CBORMap = [:]) -> [UInt8] {
        TestFrames.request(.read, group: .enumeration, command: command, payload: payload)
    }

    /// A group no standard configuration has, to show that enumeration follows the device's list.
    private struct CustomGroup: SimulatedGroup {
        var group: SMPGroup { SMPGroup(rawValue: 77) }
        var name: String { "custom" }
        func implements(command: UInt8) -> Bool { command < 3 }
        func handle(_ request: SimulatedRequest, context: inout SimulatedDeviceContext) throws(SimulatedError) -> CBORMap { [:] }
    }

    func testCountListAndDetailsFollowTheDevicesGroups() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(images: SimulatedImageConfiguration()).withOnlyCoreGroups(), groups: [CustomGroup()])
        let list = try EnumerationList().decodeResponse(try await device.respond(to: request(1)).payload)
        XCTAssertEqual(list.map(\.rawValue), [0, 1, 2, 10, 77])
        let count = try EnumerationCount().decodeResponse(try await device.respond(to: request(0)).payload)
        XCTAssertEqual(count, 5)
        let details = try EnumerationDetails().decodeResponse(try await device.respond(to: request(3)).payload)
        XCTAssertEqual(details.map(\.name), ["os mgmt", "img mgmt", "stat mgmt", "enum mgmt", "custom"])
        XCTAssertEqual(details.map(\.handlers), [9, 4, 2, 4, 3].map { UInt64($0) })
    }

    func testDetailsFilter() async throws {
        let device = VirtualDevice()
        let response = try await device.respond(to: request(3, ["groups": [10, 0, 42]]))
        let details = try EnumerationDetails().decodeResponse(response.payload)
        XCTAssertEqual(details.map(\.group), [.os, .enumeration], "the device's order; unknown groups left out")
    }

    func testSingleMarksTheLastAndRejectsIndexesPastIt() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration().withOnlyCoreGroups())
        let first = try EnumerationSingle(index: 0).decodeResponse(try await device.respond(to: request(2)).payload)
        XCTAssertEqual(first, EnumerationSingle.Entry(group: .os, isLast: false))
        let last = try EnumerationSingle(index: 2).decodeResponse(try await device.respond(to: request(2, ["index": 2])).payload)
        XCTAssertEqual(last, EnumerationSingle.Entry(group: .enumeration, isLast: true))
        let past = try await device.respond(to: request(2, ["index": 3]))
        XCTAssertEqual(past.payload, ["err": ["group": 10, "rc": 4]])
        let error = try XCTUnwrap(SMPDeviceError(payload: past.payload, requestGroup: 10))
        XCTAssertTrue(error.description.contains("ENUM_MGMT_ERR_INDEX_TOO_LARGE"), error.description)
    }

    func testLegacyAndMynewtDevicesHaveNoEnumerationByDefault() async throws {
        for configuration in [VirtualDeviceConfiguration(flavour: .legacy), .mynewtLike] {
            let response = try await VirtualDevice(configuration: configuration).respond(to: request(0))
            XCTAssertEqual(response.payload, ["rc": 8])
        }
        var on = VirtualDeviceConfiguration.mynewtLike
        on.enumeration = true
        let list = try await VirtualDevice(configuration: on).respond(to: request(1))
        XCTAssertEqual(try EnumerationList().decodeResponse(list.payload).map(\.rawValue), [0, 2, 4, 5, 7, 10, 8])
    }
}
