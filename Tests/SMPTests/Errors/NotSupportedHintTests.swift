import SMP
import XCTest

/// A "not supported" answer names the firmware option that turns the request's group on.
final class NotSupportedHintTests: XCTestCase {
    private func hint(group: SMPGroup) -> String? {
        let request = SMPRequest(group: group, command: 0, operation: .read, payload: [:])
        return SMPError.device(.returnCode(.notSupported, group: group.rawValue, reason: nil), request: SMPRequestSummary(request)).hint
    }

    func testEachGroupNamesItsOption() {
        let expected: [(SMPGroup, String)] = [
            (.fileSystem, "CONFIG_MCUMGR_GRP_FS"), (.shell, "CONFIG_MCUMGR_GRP_SHELL"), (.settings, "CONFIG_MCUMGR_GRP_SETTINGS"),
            (.statistics, "CONFIG_MCUMGR_GRP_STAT"), (.enumeration, "CONFIG_MCUMGR_GRP_ENUM"), (.zephyrBasic, "CONFIG_MCUMGR_GRP_ZBASIC"),
            (.suit, "CONFIG_MGMT_SUITFU_GRP_SUIT"), (.image, "CONFIG_MCUMGR_GRP_IMG"), (.log, "a Mynewt group"),
            (SMPGroup(rawValue: 200), "CONFIG_MCUMGR_GRP_* options"),
        ]
        for (group, option) in expected {
            let text = hint(group: group) ?? ""
            XCTAssertTrue(text.hasPrefix("the device does not implement this command or group"), text)
            XCTAssertTrue(text.contains(option), "\(group): \(text)")
        }
    }

    func testOtherDeviceErrorsHaveNoSuchHint() {
        let request = SMPRequest(group: .fileSystem, command: 0, operation: .read, payload: [:])
        XCTAssertNil(SMPError.device(.returnCode(.invalidValue, group: 8, reason: nil), request: SMPRequestSummary(request)).hint)
    }
}
