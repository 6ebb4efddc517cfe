import SMP
import SMPSimulator
import SMPTestSupport
import SMPUDP
import XCTest

/// The test-only group (250): one library file and one simulator file, registered at run time,
/// work end to end — typed command, typed errors, names from the descriptor.
final class TestGroupTests: XCTestCase {
    override func setUp() async throws {
        try SMPGroupCatalog.register(.testGroup)
    }

    private func client(flavour: SMPServerFlavour = .zephyr) async throws -> SMPClient {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(flavour: flavour), groups: [TestGroupSimulated()])
        let server = UDPSimulatorServer(device: device, host: "127.0.0.1", port: 0)
        let port = try await server.start()
        let client = SMPClient(transport: try await UDPTransport.connect(host: "127.0.0.1", port: port))
        addTeardownBlock {
            await client.close()
            await server.stop()
        }
        return client
    }

    func testEchoAndTypedErrors() async throws {
        let client = try await client()
        let echo = try await client.send(TestGroupEcho("hi"))
        XCTAssertEqual(echo, "hi")
        do {
            _ = try await client.send(TestGroupEcho(String(repeating: "x", count: 17)))
            XCTFail("a text over 16 characters is answered TOO_LONG")
        } catch SMPError.device(.groupError(let error), _) {
            XCTAssertEqual(error.code(as: TestGroupError.self), .tooLong)
            XCTAssertTrue(SMPGroupError(TestGroupError.tooLong) ~= error)
            XCTAssertEqual(error.description,
                           "TEST_MGMT_ERR_TOO_LONG (test group error 2): the text is longer than the device echoes; send less")
            XCTAssertEqual(error.legacyReturnCode, .noMemory)
        }
        let empty = try await client.exchange(TestGroupEcho("").request).deviceError
        let expected = SMPGroupError(TestGroupError.empty)
        guard case .groupError(expected)? = empty else { return XCTFail("expected TEST_MGMT_ERR_EMPTY, got \(String(describing: empty))") }
    }

    func testLegacyDeviceAnswersTheTranslation() async throws {
        let client = try await client(flavour: .legacy)
        do {
            _ = try await client.send(TestGroupEcho(""))
            XCTFail("an empty text is an error")
        } catch SMPError.device(.returnCode(let code, _, _), _) {
            XCTAssertEqual(code, .invalidValue, "TEST_MGMT_ERR_EMPTY's v1 translation")
        }
    }

    func testNamesComeFromTheDescriptor() async throws {
        XCTAssertEqual(SMPGroup(name: "testgroup"), .testGroup)
        XCTAssertEqual(SMPGroup.testGroup.description, "testgroup (250)")
        XCTAssertEqual(SMPGroup.testGroup.enablingOption, "CONFIG_TEST_MGMT (a test-only group)")
        XCTAssertTrue(SMPGroup.known.contains(.testGroup))
        let details = try await client().send(EnumerationDetails())
        XCTAssertEqual(details.first { $0.group == .testGroup }?.name, "test mgmt")
    }
}
