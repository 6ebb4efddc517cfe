import XCTest
@testable import SMP

final class SMPGroupErrorTests: XCTestCase {
    /// (group, code, name, v1 translation) from the docs/protocol/errors.md §1.9 tables (and Zephyr's translation functions
    /// for the groups the tables list without one).
    private let spotChecks: [(UInt16, Int64, String, SMPReturnCode)] = [
        (0, 2, "OS_MGMT_ERR_INVALID_FORMAT", .invalidValue),
        (0, 3, "OS_MGMT_ERR_QUERY_YIELDS_NO_ANSWER", .noEntry),
        (0, 4, "OS_MGMT_ERR_RTC_NOT_SET", .noEntry),
        (0, 5, "OS_MGMT_ERR_RTC_COMMAND_FAILED", .unknown),
        (0, 7, "OS_MGMT_ERR_HEAP_STATS_FETCH_FAILED", .unknown),
        (1, 3, "IMG_MGMT_ERR_NO_IMAGE", .noEntry),
        (1, 8, "IMG_MGMT_ERR_HASH_NOT_FOUND", .unknown),
        (1, 9, "IMG_MGMT_ERR_NO_FREE_SLOT", .badState),
        (1, 14, "IMG_MGMT_ERR_INVALID_SLOT", .invalidValue),
        (1, 15, "IMG_MGMT_ERR_NO_FREE_MEMORY", .noMemory),
        (1, 23, "IMG_MGMT_ERR_INVALID_IMAGE_HEADER_MAGIC", .invalidValue),
        (1, 25, "IMG_MGMT_ERR_INVALID_FLASH_ADDRESS", .invalidValue),
        (1, 27, "IMG_MGMT_ERR_CURRENT_VERSION_IS_NEWER", .badState),
        (1, 28, "IMG_MGMT_ERR_IMAGE_ALREADY_PENDING", .badState),
        (1, 30, "IMG_MGMT_ERR_INVALID_IMAGE_TOO_LARGE", .unknown),
        (1, 34, "IMG_MGMT_ERR_ACTIVE_SLOT_NOT_KNOWN", .unknown),
        (2, 2, "STAT_MGMT_ERR_INVALID_GROUP", .noEntry),
        (2, 3, "STAT_MGMT_ERR_INVALID_STAT_NAME", .noEntry),
        (2, 4, "STAT_MGMT_ERR_INVALID_STAT_SIZE", .invalidValue),
        (2, 5, "STAT_MGMT_ERR_WALK_ABORTED", .unknown),
        (3, 2, "SETTINGS_MGMT_ERR_KEY_TOO_LONG", .invalidValue),
        (3, 3, "SETTINGS_MGMT_ERR_KEY_NOT_FOUND", .noEntry),
        (3, 5, "SETTINGS_MGMT_ERR_ROOT_KEY_NOT_FOUND", .unknown),
        (3, 8, "SETTINGS_MGMT_ERR_SAVE_NOT_SUPPORTED", .unknown),
        (8, 2, "FS_MGMT_ERR_FILE_INVALID_NAME", .invalidValue),
        (8, 3, "FS_MGMT_ERR_FILE_NOT_FOUND", .noEntry),
        (8, 11, "FS_MGMT_ERR_FILE_OFFSET_NOT_VALID", .unknown),
        (8, 13, "FS_MGMT_ERR_CHECKSUM_HASH_NOT_FOUND", .invalidValue),
        (8, 14, "FS_MGMT_ERR_MOUNT_POINT_NOT_FOUND", .noEntry),
        (8, 17, "FS_MGMT_ERR_FILE_CLOSE_FAILED", .unknown),
        (9, 2, "SHELL_MGMT_ERR_COMMAND_TOO_LONG", .invalidValue),
        (9, 3, "SHELL_MGMT_ERR_EMPTY_COMMAND", .invalidValue),
        (10, 2, "ENUM_MGMT_ERR_TOO_MANY_GROUP_ENTRIES", .invalidValue),
        (10, 3, "ENUM_MGMT_ERR_INSUFFICIENT_HEAP_FOR_ENTRIES", .unknown),
        (10, 4, "ENUM_MGMT_ERR_INDEX_TOO_LARGE", .unknown),
        (11, 2, "TRANSPORT_MGMT_ERR_TRANSPORT_MISSING_REQUIRED_FUNCTIONS", .noEntry),
        (11, 4, "TRANSPORT_MGMT_ERR_INVALID_TRANSPORT", .invalidValue),
        (11, 6, "TRANSPORT_MGMT_ERR_ALL_CONTEXTS_USED", .badState),
        (11, 9, "TRANSPORT_MGMT_ERR_SAME_BRIDGE_DEVICE_DISALLOWED", .invalidValue),
        (11, 17, "TRANSPORT_MGMT_ERR_CONNECT_FAILED", .unknown),
        (63, 2, "ZEPHYRBASIC_MGMT_ERR_FLASH_OPEN_FAILED", .noEntry),
        (63, 3, "ZEPHYRBASIC_MGMT_ERR_FLASH_CONFIG_QUERY_FAIL", .unknown),
        (63, 4, "ZEPHYRBASIC_MGMT_ERR_FLASH_ERASE_FAILED", .unknown),
    ]

    func testSpotChecksAgainstTheProtocolTables() {
        for (group, code, name, legacy) in spotChecks {
            let error = SMPGroupError(group: group, code: code)
            XCTAssertEqual(error.name, name)
            XCTAssertEqual(error.legacyReturnCode, legacy, name)
            XCTAssertFalse(error.sentence.isEmpty, name)
        }
    }

    func testDescription() {
        let error = SMPGroupError(group: 1, code: 9)
        XCTAssertTrue(error.description.hasPrefix("IMG_MGMT_ERR_NO_FREE_SLOT (image group error 9): no free slot"),
                      error.description)
        XCTAssertTrue(SMPGroupError(group: 8, code: 3).description.hasPrefix(
            "FS_MGMT_ERR_FILE_NOT_FOUND (file system group error 3): "))
    }

    func testHelpfulSentences() {
        XCTAssertTrue(SMPGroupError(group: 1, code: 27).sentence.contains("without upgrade=true"))
        XCTAssertEqual(SMPGroupError(group: 0, code: 4).sentence, "the device's real-time clock has never been set")
        let clockUnset = SMPError.device(.groupError(.os(.rtcNotSet)), request: SMPRequestSummary(SMPRequest(group: .os, command: OSCommandID.dateTime, operation: .read, payload: [:])))
        XCTAssertEqual(clockUnset.nextStep, .setDeviceClock)
        XCTAssertEqual(clockUnset.hint, "set the device's date and time (OS group, date-time write)")
    }

    func testStatisticsErrorsReportedWithGroup63() {
        let quirk = SMPGroupError(group: 63, code: 3, requestGroup: 2)
        XCTAssertEqual(quirk.name, "STAT_MGMT_ERR_INVALID_STAT_NAME")
        XCTAssertEqual(quirk.legacyReturnCode, .noEntry)
        XCTAssertTrue(quirk.description.hasPrefix(
            "STAT_MGMT_ERR_INVALID_STAT_NAME (statistics group error 3, reported as group 63): "), quirk.description)

        // The same pair without the request context, or from another group, is Zephyr basic's.
        for requestGroup: UInt16? in [nil, 63, 0] {
            let basic = SMPGroupError(group: 63, code: 3, requestGroup: requestGroup)
            XCTAssertEqual(basic.name, "ZEPHYRBASIC_MGMT_ERR_FLASH_CONFIG_QUERY_FAIL")
        }
        // A statistics error reported with its own group keeps working.
        XCTAssertEqual(SMPGroupError(group: 2, code: 2, requestGroup: 2).name, "STAT_MGMT_ERR_INVALID_GROUP")
    }

    func testUnknownCodesOfKnownGroups() {
        let error = SMPGroupError(group: 1, code: 40)
        XCTAssertEqual(error.name, "IMG_MGMT_ERR_40")
        XCTAssertEqual(error.legacyReturnCode, .unknown)
        XCTAssertTrue(error.sentence.contains("image group reported error 40"))
        XCTAssertEqual(SMPGroupError(group: 0, code: -3).name, "OS_MGMT_ERR_-3")
        XCTAssertEqual(SMPGroupError(group: 0, code: -3).legacyReturnCode, .unknown)
    }

    func testUnknownGroups() {
        let error = SMPGroupError(group: 200, code: 5)
        XCTAssertEqual(error.name, "group 200 error 5")
        XCTAssertEqual(error.legacyReturnCode, .unknown)
        XCTAssertTrue(error.sentence.contains("application-defined group 200"))
        XCTAssertTrue(error.description.hasPrefix("group 200 error 5: "))
        XCTAssertEqual(SMPGroupError(group: 4, code: 2).name, "group 4 error 2")
    }

    func testUnknownCodesNeverTranslateToSuccess() {
        for group: UInt16 in [0, 1, 2, 3, 4, 8, 9, 10, 11, 63, 64, 200, .max] {
            for code: Int64 in [-1, 1, 99, 1000, .max, .min] {
                XCTAssertNotEqual(SMPGroupError(group: group, code: code).legacyReturnCode, .ok, "\(group)/\(code)")
                XCTAssertNotEqual(SMPGroupError(group: group, code: code, requestGroup: 2).legacyReturnCode, .ok)
            }
        }
    }
}

/// The typed side of group errors: each code a case of its group's enum.
final class SMPGroupErrorTypedTests: XCTestCase {
    func testReasonIsTheEnumCase() {
        let error = SMPGroupError(group: 8, code: 3, requestGroup: 8)
        guard case .known(let code) = error.reason else { return XCTFail("expected a known code") }
        XCTAssertEqual(code as? FileSystemGroupError, .fileNotFound)
        XCTAssertEqual(error.code(as: FileSystemGroupError.self), .fileNotFound)
        XCTAssertNil(error.code(as: ImageGroupError.self), "a file system error is not an image error")
        XCTAssertEqual(SMPGroupError.fs(.fileNotFound), error)
        XCTAssertEqual(FileSystemGroupError.fileNotFound.name, "FS_MGMT_ERR_FILE_NOT_FOUND")
    }

    func testPatternsMatchTypedCodes() {
        let device = SMPDeviceError.groupError(SMPGroupError(group: 1, code: 9, requestGroup: 1))
        guard case .groupError(SMPGroupError(ImageGroupError.noFreeSlot)) = device else { return XCTFail("value pattern") }
        guard case .groupError(.image(.noFreeSlot)) = device else { return XCTFail("factory pattern") }
        if case .groupError(.image(.invalidSlot)) = device { XCTFail("another code") }
        if case .groupError(SMPGroupError(FileSystemGroupError.fileWriteFailed)) = device { XCTFail("another group") }
        if case .groupError(.fs(.fileNotFound)) = SMPDeviceError.groupError(SMPGroupError(group: 1, code: 3)) {
            XCTFail("the same number in another group")
        }
    }

    func testStatisticsReportedAsZephyrBasicMatchesTheStatisticsEnum() {
        let quirk = SMPGroupError(group: 63, code: 3, requestGroup: 2)
        XCTAssertEqual(quirk.code(as: StatisticsGroupError.self), .invalidStatName)
        XCTAssertNil(quirk.code(as: ZephyrBasicGroupError.self))
        XCTAssertTrue(SMPGroupError.statistics(.invalidStatName) ~= quirk)
        XCTAssertFalse(SMPGroupError.zephyrBasic(.flashConfigQueryFail) ~= quirk)
        XCTAssertEqual(SMPGroupError(StatisticsGroupError.invalidStatName, reportedAs: .zephyrBasic), quirk)
    }

    func testUnknownCodesKeepTheirNumber() {
        guard case .unknownCode(let group, let code) = SMPGroupError(group: 1, code: 40).reason else {
            return XCTFail("expected an unknown code")
        }
        XCTAssertEqual(group, .image)
        XCTAssertEqual(code, 40)
        XCTAssertNil(SMPGroupError(group: 1, code: 40).code(as: ImageGroupError.self))
        guard case .unknownGroup(let other, let number) = SMPGroupError(group: 4, code: 2).reason else {
            return XCTFail("expected an unknown group")
        }
        XCTAssertEqual(other, .log)
        XCTAssertEqual(number, 2)
    }
}
