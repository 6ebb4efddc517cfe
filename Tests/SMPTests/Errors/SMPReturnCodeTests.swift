import XCTest
@testable import SMP

final class SMPReturnCodeTests: XCTestCase {
    private let knownCodes: [(SMPReturnCode, Int64, String)] = [
        (.ok, 0, "MGMT_ERR_EOK"),
        (.unknown, 1, "MGMT_ERR_EUNKNOWN"),
        (.noMemory, 2, "MGMT_ERR_ENOMEM"),
        (.invalidValue, 3, "MGMT_ERR_EINVAL"),
        (.timeout, 4, "MGMT_ERR_ETIMEOUT"),
        (.noEntry, 5, "MGMT_ERR_ENOENT"),
        (.badState, 6, "MGMT_ERR_EBADSTATE"),
        (.messageTooLarge, 7, "MGMT_ERR_EMSGSIZE"),
        (.notSupported, 8, "MGMT_ERR_ENOTSUP"),
        (.corrupt, 9, "MGMT_ERR_ECORRUPT"),
        (.busy, 10, "MGMT_ERR_EBUSY"),
        (.accessDenied, 11, "MGMT_ERR_EACCESSDENIED"),
        (.unsupportedTooOld, 12, "MGMT_ERR_UNSUPPORTED_TOO_OLD"),
        (.unsupportedTooNew, 13, "MGMT_ERR_UNSUPPORTED_TOO_NEW"),
        (.perUser, 256, "MGMT_ERR_EPERUSER"),
    ]

    func testKnownCodesHaveTheirValuesAndNames() {
        for (code, value, name) in knownCodes {
            XCTAssertEqual(code.rawValue, value)
            XCTAssertEqual(code.name, name)
            XCTAssertEqual(SMPReturnCode(rawValue: value), code)
        }
    }

    func testKnownCodesHaveDistinctNonEmptySentences() {
        let sentences = knownCodes.map { $0.0.sentence }
        XCTAssertFalse(sentences.contains { $0.isEmpty })
        XCTAssertEqual(Set(sentences).count, sentences.count)
        XCTAssertEqual(SMPReturnCodeInfo.all.count, knownCodes.count)
    }

    func testDescription() {
        XCTAssertTrue(SMPReturnCode.invalidValue.description.hasPrefix(
            "MGMT_ERR_EINVAL (3): invalid argument or malformed request"))
        XCTAssertTrue(SMPReturnCode.busy.description.hasPrefix("MGMT_ERR_EBUSY (10): the device is busy"))
    }

    func testOnlyZeroIsSuccess() {
        XCTAssertTrue(SMPReturnCode.ok.isSuccess)
        for value: Int64 in [1, 13, 14, 255, 256, 300, -1, .min, .max] {
            XCTAssertFalse(SMPReturnCode(rawValue: value).isSuccess, "\(value)")
        }
    }

    func testUnknownCodesAreNamedAndExplained() {
        XCTAssertEqual(SMPReturnCode(rawValue: 14).name, "MGMT_ERR_14")
        XCTAssertEqual(SMPReturnCode(rawValue: 255).name, "MGMT_ERR_255")
        XCTAssertEqual(SMPReturnCode(rawValue: -1).name, "MGMT_ERR_-1")
        XCTAssertEqual(SMPReturnCode(rawValue: 257).name, "MGMT_ERR_EPERUSER+1")
        XCTAssertEqual(SMPReturnCode(rawValue: 300).name, "MGMT_ERR_EPERUSER+44")
        XCTAssertTrue(SMPReturnCode(rawValue: 300).sentence.contains("application-defined error 44"))
        XCTAssertTrue(SMPReturnCode(rawValue: -1).sentence.contains("unrecognised"))
        XCTAssertEqual(SMPReturnCode(rawValue: .max).name, "MGMT_ERR_EPERUSER+\(Int64.max - 256)")
        XCTAssertEqual(SMPReturnCode(rawValue: .min).name, "MGMT_ERR_\(Int64.min)")
    }

    func testMynewtLogGroupSwapsSevenAndNine() {
        let seven = SMPReturnCode(rawValue: 7), nine = SMPReturnCode(rawValue: 9)
        XCTAssertEqual(seven.name(inGroup: 4), "LOG_MGMT_ERR_ECORRUPT")
        XCTAssertEqual(nine.name(inGroup: 4), "LOG_MGMT_ERR_EMSGSIZE")
        XCTAssertEqual(seven.sentence(inGroup: 4), SMPReturnCode.corrupt.sentence)
        XCTAssertEqual(nine.sentence(inGroup: 4), SMPReturnCode.messageTooLarge.sentence)
        XCTAssertEqual(seven.canonical(inGroup: 4), .corrupt)
        XCTAssertEqual(nine.canonical(inGroup: 4), .messageTooLarge)
    }

    func testOtherCodesAndGroupsAreNotSwapped() {
        XCTAssertEqual(SMPReturnCode(rawValue: 7).name(inGroup: 0), "MGMT_ERR_EMSGSIZE")
        XCTAssertEqual(SMPReturnCode(rawValue: 9).name(inGroup: 1), "MGMT_ERR_ECORRUPT")
        XCTAssertEqual(SMPReturnCode(rawValue: 7).sentence(inGroup: 3), SMPReturnCode.messageTooLarge.sentence)
        for value: Int64 in [0, 1, 2, 3, 4, 5, 6, 8, 10, 256] {
            let code = SMPReturnCode(rawValue: value)
            XCTAssertEqual(code.name(inGroup: 4), code.name)
            XCTAssertEqual(code.canonical(inGroup: 4), code)
        }
    }
}
