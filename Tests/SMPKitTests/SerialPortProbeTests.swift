import Foundation
import Logging
import SMP
import SMPSimulator
import XCTest
@testable import SMPKit

/// ``SerialPortProbe`` against real pseudo-terminals: one the virtual device serves answers the
/// echo, one nobody answers on is silent, a path that is no port fails.
final class SerialPortProbeTests: XCTestCase {
    private let logger = Logger(label: "probe-test") { _ in SwiftLogNoOpLogHandler() }

    func testAServedPortAnswersTheEcho() async throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("smpkit-probe-\(UUID().uuidString.prefix(8))").path
        let server = PTYSimulatorServer(device: VirtualDevice(), linkPath: link)
        _ = try await server.start()
        let probe = await SerialPortProbe.probe(link, timeout: .seconds(2), logger: logger)
        await server.stop()
        guard case .answered(let roundTrip) = probe else { return XCTFail("\(probe)") }
        XCTAssertGreaterThan(roundTrip, .zero)
    }

    func testAPortNobodyAnswersOnIsSilentAndNoPortFails() async throws {
        var controller: Int32 = -1
        var terminal: Int32 = -1
        XCTAssertEqual(openpty(&controller, &terminal, nil, nil, nil), 0)
        defer {
            close(controller)
            close(terminal)
        }
        let path = try XCTUnwrap(ttyname(terminal).map { String(cString: $0) })
        let silent = await SerialPortProbe.probe(path, timeout: .milliseconds(300), logger: logger)
        XCTAssertEqual(silent, .silent)
        let missing = await SerialPortProbe.probe("/dev/smpkit-no-such-port", timeout: .milliseconds(300), logger: logger)
        guard case .failed(let message) = missing else { return XCTFail("\(missing)") }
        XCTAssertTrue(message.contains("/dev/smpkit-no-such-port"), message)
    }
}
