import SMP
import XCTest

/// A "not supported" answer: the message says what happened, the hint names the firmware option
/// that turns the request's group on (and says it only there).
final class NotSupportedHintTests: XCTestCase {
    private func notSupported(group: SMPGroup) -> SMPError {
        let request = SMPRequest(group: group, command: 0, operation: .read, payload: [:])
        return SMPError.device(.returnCode(.notSupported, group: group.rawValue, reason: nil), request: SMPRequestSummary(request))
    }

    func testEachGroupNamesItsOption() {
        let expected: [(SMPGroup, String)] = [
            (.fileSystem, "CONFIG_MCUMGR_GRP_FS"), (.shell, "CONFIG_MCUMGR_GRP_SHELL"), (.settings, "CONFIG_MCUMGR_GRP_SETTINGS"),
            (.statistics, "CONFIG_MCUMGR_GRP_STAT"), (.enumeration, "CONFIG_MCUMGR_GRP_ENUM"), (.zephyrBasic, "CONFIG_MCUMGR_GRP_ZBASIC"),
            (.suit, "CONFIG_MGMT_SUITFU_GRP_SUIT"), (.image, "CONFIG_MCUMGR_GRP_IMG"), (.log, "a Mynewt group"),
            (SMPGroup(rawValue: 200), "CONFIG_MCUMGR_GRP_* options"),
        ]
        for (group, option) in expected {
            let error = notSupported(group: group)
            XCTAssertTrue(error.hint?.hasPrefix("it is probably not compiled in: check the firmware's Kconfig (\(option)") == true, "\(group): \(error.hint ?? "no hint")")
            XCTAssertTrue(error.description.hasSuffix("MGMT_ERR_ENOTSUP (8): not supported: the device does not implement this group or command"),
                "the message says what happened, the hint what to do: \(error.description)")
        }
    }

    func testOtherDeviceErrorsHaveNoSuchHint() {
        let request = SMPRequest(group: .fileSystem, command: 0, operation: .read, payload: [:])
        XCTAssertNil(SMPError.device(.returnCode(.invalidValue, group: 8, reason: nil), request: SMPRequestSummary(request)).hint)
    }
}
