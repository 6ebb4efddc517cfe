/// OS group (0), Zephyr `enum os_mgmt_err_code_t`; v1 translation from `os_mgmt.c`.
///
/// Each case names one `err.rc` value; ``SMPGroupErrorCode/name`` gives Zephyr's enumerator name.
public enum OSGroupError: Int64, SMPGroupErrorCode {
    /// `OS_MGMT_ERR_OK` (0).
    case ok = 0
    /// `OS_MGMT_ERR_UNKNOWN` (1).
    case unknown = 1
    /// `OS_MGMT_ERR_INVALID_FORMAT` (2).
    case invalidFormat = 2
    /// `OS_MGMT_ERR_QUERY_YIELDS_NO_ANSWER` (3).
    case queryYieldsNoAnswer = 3
    /// `OS_MGMT_ERR_RTC_NOT_SET` (4).
    case rtcNotSet = 4
    /// `OS_MGMT_ERR_RTC_COMMAND_FAILED` (5).
    case rtcCommandFailed = 5
    /// `OS_MGMT_ERR_QUERY_RESPONSE_VALUE_NOT_VALID` (6).
    case queryResponseValueNotValid = 6
    /// `OS_MGMT_ERR_HEAP_STATS_FETCH_FAILED` (7).
    case heapStatsFetchFailed = 7

    public static let group = SMPGroup.os
    public static let prefix = "OS_MGMT_ERR_"

    public var info: SMPGroupErrorInfo {
        switch self {
        case .ok: .init("OK", "success: the OS group reported no error", .ok)
        case .unknown:
            .init("UNKNOWN", "the OS group reported an unspecified error; check the device's log output", .unknown)
        case .invalidFormat:
            .init(
                "INVALID_FORMAT",
                "the info format string has a character the device does not support (valid: s n r v m p i o a, "
                    + "and b only with MCUMGR_GRP_OS_INFO_BUILD_DATE_TIME)",
                .invalidValue)
        case .queryYieldsNoAnswer:
            .init(
                "QUERY_YIELDS_NO_ANSWER",
                "the device does not know this bootloader-info query; omit the query, or ask for \"mode\"",
                .noEntry)
        case .rtcNotSet:
            .init(
                "RTC_NOT_SET",
                "the device's real-time clock has never been set",
                .noEntry)
        case .rtcCommandFailed:
            .init(
                "RTC_COMMAND_FAILED",
                "the device's real-time clock driver failed to read or set the time; check the RTC hardware "
                    + "and the devicetree `rtc` alias",
                .unknown)
        case .queryResponseValueNotValid:
            .init(
                "QUERY_RESPONSE_VALUE_NOT_VALID",
                "the device recognised the query but has no valid value to answer it with",
                .unknown)
        case .heapStatsFetchFailed:
            .init("HEAP_STATS_FETCH_FAILED", "the device failed to read its heap statistics", .unknown)
        }
    }
}

extension SMPGroupError {
    /// The error a device reports for `code`, e.g. `.os(.rtcNotSet)`; also a pattern that matches it
    /// (`case .groupError(.os(.rtcNotSet))`).
    public static func os(_ code: OSGroupError) -> SMPGroupError { SMPGroupError(code) }
}
