import SMP
import SMPSimulator
import SMPTestSupport
import XCTest
@testable import smpctl

/// The test-only group (250) in the CLI: no CLI file of its own, yet `smpctl groups` probes it
/// and error documents name its codes, because both are derived from the registered descriptor.
final class TestGroupCommandTests: XCTestCase {
    override func setUp() async throws {
        try SMPGroupCatalog.register(.testGroup)
    }

    private func client(_ served: ServedDevice) async throws -> SMPClient {
        let client = try await GlobalOptions.parse(["-c", served.endpoint]).resolveInvocation().connect()
        addTeardownBlock { await client.close() }
        return client
    }

    func testGroupsProbesTheRegisteredGroup() async throws {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.enumeration = false
        let served = try await startDevice(configuration, groups: [TestGroupSimulated()])
        let report = try await GroupsCommand.survey(client(served))
        XCTAssertTrue(report.groups.contains { $0.group == .testGroup }, report.text)
        XCTAssertTrue(report.text.contains("250  testgroup"), report.text)

        let without = try await startDevice(configuration)
        let missing = try await GroupsCommand.survey(client(without))
        XCTAssertFalse(missing.groups.contains { $0.group == .testGroup }, missing.text)
    }

    func testErrorDocumentNamesTheCode() async throws {
        let served = try await startDevice(groups: [TestGroupSimulated()])
        do {
            _ = try await client(served).send(TestGroupEcho(""))
            XCTFail("an empty text is an error")
        } catch {
            let failure = CLIError(error)
            XCTAssertEqual(failure.status, .deviceError)
            XCTAssertTrue(failure.message.contains("TEST_MGMT_ERR_EMPTY (test group error 1): there is nothing to echo"), failure.message)
            guard case .object(let members) = failure.jsonObject else { return XCTFail("the error is not an object") }
            let device = members.first { $0.0 == "device" }?.1
            XCTAssertEqual(device, .object([
                ("scope", .string("group")), ("group", .uint(250)), ("rc", .int(1)), ("rcName", .string("TEST_MGMT_ERR_EMPTY")), ("reason", .null),
            ]))
        }
    }
}
