/// Statistics group (2), Zephyr `enum stat_mgmt_err_code_t`; v1 translation from `stat_mgmt.c`.
///
/// Zephyr reports these with `err.group = 63`; see `SMPErrorCatalog.table(forGroup:requestGroup:)`.
///
/// Each case names one `err.rc` value; ``SMPGroupErrorCode/name`` gives Zephyr's enumerator name.
public enum StatisticsGroupError: Int64, SMPGroupErrorCode {
    /// `STAT_MGMT_ERR_OK` (0).
    case ok = 0
    /// `STAT_MGMT_ERR_UNKNOWN` (1).
    case unknown = 1
    /// `STAT_MGMT_ERR_INVALID_GROUP` (2).
    case invalidGroup = 2
    /// `STAT_MGMT_ERR_INVALID_STAT_NAME` (3).
    case invalidStatName = 3
    /// `STAT_MGMT_ERR_INVALID_STAT_SIZE` (4).
    case invalidStatSize = 4
    /// `STAT_MGMT_ERR_WALK_ABORTED` (5).
    case walkAborted = 5

    public static let group = SMPGroup.statistics
    public static let prefix = "STAT_MGMT_ERR_"

    public var info: SMPGroupErrorInfo {
        switch self {
        case .ok: .init("OK", "success: the statistics group reported no error", .ok)
        case .unknown:
            .init(
                "UNKNOWN",
                "the statistics group reported an unspecified error; check the device's log output",
                .unknown)
        case .invalidGroup:
            .init(
                "INVALID_GROUP",
                "the device has no statistics group with that name; list its statistics groups first",
                .noEntry)
        case .invalidStatName:
            .init(
                "INVALID_STAT_NAME",
                "the device has no statistics group or entry with that name; list its statistics groups first "
                    + "(names are case-sensitive)",
                .noEntry)
        case .invalidStatSize:
            .init(
                "INVALID_STAT_SIZE",
                "a statistic has a size the device cannot encode (a firmware bug in the statistics definition)",
                .invalidValue)
        case .walkAborted:
            .init(
                "WALK_ABORTED",
                "the device stopped walking the statistics (e.g. the response buffer filled up)",
                .unknown)
        }
    }
}

extension SMPGroupError {
    /// The error a device reports for `code`, e.g. `.statistics(.invalidStatName)`; also a pattern that matches it
    /// (`case .groupError(.statistics(.invalidStatName))`).
    public static func statistics(_ code: StatisticsGroupError) -> SMPGroupError { SMPGroupError(code) }
}
