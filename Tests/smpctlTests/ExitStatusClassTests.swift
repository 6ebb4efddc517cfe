import SMP
import XCTest
@testable import smpctl

/// The exit status classes of docs/exit-codes.md hold for values the parser accepts but the link
/// refuses later: bad input (65), never "the device could not be reached" (69).
final class ExitStatusClassTests: XCTestCase {
    func testASettingTheLinkRefusesIsBadData() {
        let refused = SMPTransportError(.unsupportedSetting, "serial:/dev/ttyUSB0: the port does not accept 12345 baud: Invalid argument")
        XCTAssertEqual(CLIError(refused).status, .dataError)
        XCTAssertEqual(CLIError(SMPError.transport(refused)).status, .dataError)
        XCTAssertEqual(CLIError(SMPTransportError(.refused, "nothing listens")).status, .transport)
        XCTAssertEqual(CLIError(SMPTransportError(.permissionDenied, "denied")).status, .transport)
    }

    func testEveryStatusHasItsRowInTheDocument() throws {
        let document = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("docs/exit-codes.md"), encoding: .utf8)
        for status in ExitStatus.allCases {
            XCTAssertTrue(
                document.contains("| \(status.rawValue) | `\(status.jsonName)` |"), "docs/exit-codes.md lacks \(status.rawValue) \(status.jsonName)")
            XCTAssertFalse(status.defaultHint.isEmpty, "no default hint for \(status.jsonName)")
        }
    }
}
