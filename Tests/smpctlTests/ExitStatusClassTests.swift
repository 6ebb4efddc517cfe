import SMP
import SMPFirmware
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

    /// `smpctl --help` and the README list every exit code, and the JSON schema every code and name.
    func testEveryStatusIsListedInTheHelpTheReadmeAndTheSchema() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let run = try await SMPCtl.run(["--help"])
        assertSuccess(run)
        let help = run.stdout.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let schema = try String(contentsOf: root.appendingPathComponent("docs/schema/v1/smpctl.schema.json"), encoding: .utf8)
        guard let start = readme.range(of: "- Exit codes (") else { return XCTFail("README.md lacks its exit-code list") }
        let readmeList = readme[start.upperBound...].prefix { $0 != ")" }.replacingOccurrences(of: "\n", with: " ")
        for status in ExitStatus.allCases {
            let code = "\(status.rawValue) "
            XCTAssertTrue(help.contains(" " + code) || help.contains("codes: " + code), "smpctl --help lacks exit code \(status.rawValue)")
            XCTAssertTrue(readmeList.hasPrefix(code) || readmeList.contains(" " + code), "README.md lacks exit code \(status.rawValue)")
            guard status != .success else { continue }
            XCTAssertTrue(schema.contains("\"\(status.jsonName)\""), "the schema lacks \(status.jsonName)")
        }
    }

    /// An upgrade smpctl refuses from what it read on the device is `refused` (4), not the device's error.
    func testAPlanRefusalIsSmpctlsOwn() {
        let refusal = UpgradeFailure.cliError(UpgradePlanError.noImagesListed, file: "app.bin")
        XCTAssertEqual(refusal.status, .refused)
        XCTAssertEqual(refusal.status.rawValue, 4)
        XCTAssertEqual(refusal.status.jsonName, "refused")
    }
}
