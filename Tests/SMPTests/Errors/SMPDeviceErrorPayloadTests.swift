import CBOR
import XCTest
@testable import SMP

final class SMPDeviceErrorPayloadTests: XCTestCase {
    private func read(_ payload: CBORMap, group: UInt16 = 1) -> SMPDeviceError? {
        SMPDeviceError(payload: payload, requestGroup: group)
    }

    private func assertMalformed(_ payload: CBORMap, mentioning text: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        guard case .returnCode(let code, let group, let reason?) = read(payload, group: 8) else {
            return XCTFail("expected a malformed-response error for \(payload)", file: file, line: line)
        }
        XCTAssertEqual(code, .unknown, file: file, line: line)
        XCTAssertEqual(group, 8, file: file, line: line)
        XCTAssertTrue(reason.hasPrefix("malformed response: "), reason, file: file, line: line)
        XCTAssertTrue(reason.contains(text), reason, file: file, line: line)
    }

    func testSuccess() {
        XCTAssertNil(read([:]))
        XCTAssertNil(read(["rc": 0]))
        XCTAssertNil(read(["off": 512, "match": true]))
        XCTAssertNil(read(["err": ["group": 1, "rc": 0]]))
        XCTAssertNil(read(["err": ["group": 1, "rc": 0], "rc": 0]))
    }

    func testReturnCode() {
        XCTAssertEqual(read(["rc": 3], group: 0), .returnCode(.invalidValue, group: 0, reason: nil))
        XCTAssertEqual(read(["rc": 8]), .returnCode(.notSupported, group: 1, reason: nil))
        XCTAssertEqual(read(["rc": 0, "off": 0], group: 1), nil)
    }

    func testNegativeReturnCode() {
        let error = read(["rc": -1])
        XCTAssertEqual(error, .returnCode(SMPReturnCode(rawValue: -1), group: 1, reason: nil))
        XCTAssertEqual(error?.legacyReturnCode.isSuccess, false)
    }

    func testReturnCodeWithReason() {
        let error = read(["rc": 3, "rsn": "bad"], group: 0)
        XCTAssertEqual(error, .returnCode(.invalidValue, group: 0, reason: "bad"))
        XCTAssertEqual(error?.description.hasPrefix("MGMT_ERR_EINVAL (3): invalid argument or malformed request"), true)
        XCTAssertEqual(error?.description.hasSuffix("; reason: \"bad\""), true)
    }

    func testGroupError() {
        let error = read(["err": ["group": 1, "rc": 9]])
        XCTAssertEqual(error, .groupError(SMPGroupError(group: 1, code: 9, requestGroup: 1)))
        XCTAssertEqual(error?.legacyReturnCode, .badState)
        XCTAssertEqual(error?.description.hasPrefix("IMG_MGMT_ERR_NO_FREE_SLOT (image group error 9): "), true)
    }

    func testGroupErrorWinsOverReturnCode() {
        XCTAssertEqual(read(["rc": 3, "err": ["group": 1, "rc": 27]]),
                       .groupError(SMPGroupError(group: 1, code: 27, requestGroup: 1)))
        // A zero err.rc is no error, so the rc decides.
        XCTAssertEqual(read(["err": ["group": 1, "rc": 0], "rc": 10]), .returnCode(.busy, group: 1, reason: nil))
    }

    func testGroupErrorKeepsExtraKeysIrrelevant() {
        // FS upload offset mismatch carries "len" beside "err".
        XCTAssertEqual(read(["err": ["group": 8, "rc": 11], "len": 1024], group: 8),
                       .groupError(SMPGroupError(group: 8, code: 11, requestGroup: 8)))
    }

    func testStatisticsQuirkThroughPayload() {
        let error = read(["err": ["group": 63, "rc": 3]], group: 2)
        guard case .groupError(let groupError) = error else { return XCTFail("expected a group error") }
        XCTAssertEqual(groupError.name, "STAT_MGMT_ERR_INVALID_STAT_NAME")
    }

    func testMynewtLogQuirkThroughPayload() {
        let error = read(["rc": 7], group: 4)
        XCTAssertEqual(error?.legacyReturnCode, .corrupt)
        XCTAssertEqual(error?.description.hasPrefix("LOG_MGMT_ERR_ECORRUPT (7): "), true)
        XCTAssertEqual(read(["rc": 7], group: 0)?.legacyReturnCode, .messageTooLarge)
    }

    func testMalformedReturnCode() {
        assertMalformed(["rc": "x"], mentioning: "\"rc\" should be an integer but is text string")
        assertMalformed(["rc": nil], mentioning: "\"rc\"")
        assertMalformed(["rc": 1.5], mentioning: "\"rc\"")
        assertMalformed(["rc": .unsigned(UInt64.max)], mentioning: "\"rc\"")
        XCTAssertEqual(read(["rc": "x"])?.description,
                       "malformed response: \"rc\" should be an integer but is text string \"x\"; "
                       + "treated as a failure (MGMT_ERR_EUNKNOWN)")
    }

    func testMalformedGroupError() {
        assertMalformed(["err": 5], mentioning: "\"err\" should be a map")
        assertMalformed(["err": 5, "rc": 0], mentioning: "\"err\" should be a map")
        assertMalformed(["err": [:]], mentioning: "\"err\" has no \"rc\"")
        assertMalformed(["err": ["group": 1, "rc": "9"]], mentioning: "\"err.rc\"")
        assertMalformed(["err": ["rc": 9]], mentioning: "without a \"group\"")
        assertMalformed(["err": ["group": 70000, "rc": 9]], mentioning: "not a group ID")
        assertMalformed(["err": ["group": -1, "rc": 9]], mentioning: "not a group ID")
        assertMalformed(["err": ["group": "img", "rc": 9]], mentioning: "not a group ID")
    }

    func testNegativeGroupErrorCode() {
        XCTAssertEqual(read(["err": ["group": 0, "rc": -2]]),
                       .groupError(SMPGroupError(group: 0, code: -2, requestGroup: 1)))
    }

    func testNonTextReasonIsShown() {
        XCTAssertEqual(read(["rc": 1, "rsn": 42]), .returnCode(.unknown, group: 1, reason: "42"))
    }
}
