/// Zephyr basic group (63), Zephyr `enum zephyr_basic_group_err_code_t`
/// (`ZEPHYRBASIC_MGMT_ERR_*`; an older header spelled them `ZEPHYR_MGMT_GRP_CMD_RC_*`).
///
/// v1 translation from `basic_mgmt.c`, except that Zephyr translates FLASH_CONFIG_QUERY_FAIL and
/// FLASH_ERASE_FAILED to `MGMT_ERR_EOK`, so a v1 client sees those failures as success. This
/// catalog never maps a failure to success and uses EUNKNOWN for them.
///
/// Each case names one `err.rc` value; ``SMPGroupErrorCode/name`` gives Zephyr's enumerator name.
public enum ZephyrBasicGroupError: Int64, SMPGroupErrorCode {
    /// `ZEPHYRBASIC_MGMT_ERR_OK` (0).
    case ok = 0
    /// `ZEPHYRBASIC_MGMT_ERR_UNKNOWN` (1).
    case unknown = 1
    /// `ZEPHYRBASIC_MGMT_ERR_FLASH_OPEN_FAILED` (2).
    case flashOpenFailed = 2
    /// `ZEPHYRBASIC_MGMT_ERR_FLASH_CONFIG_QUERY_FAIL` (3).
    case flashConfigQueryFail = 3
    /// `ZEPHYRBASIC_MGMT_ERR_FLASH_ERASE_FAILED` (4).
    case flashEraseFailed = 4

    public static let group = SMPGroup.zephyrBasic
    public static let prefix = "ZEPHYRBASIC_MGMT_ERR_"

    public var info: SMPGroupErrorInfo {
        switch self {
        case .ok: .init("OK", "success: the Zephyr basic group reported no error", .ok)
        case .unknown:
            .init(
                "UNKNOWN",
                "the Zephyr basic group reported an unspecified error; check the device's log output",
                .unknown)
        case .flashOpenFailed:
            .init(
                "FLASH_OPEN_FAILED",
                "the device could not open its storage partition; check that the firmware defines "
                    + "storage_partition",
                .noEntry)
        case .flashConfigQueryFail:
            .init(
                "FLASH_CONFIG_QUERY_FAIL",
                "the device could not find the flash device of its storage partition",
                .unknown)
        case .flashEraseFailed:
            .init(
                "FLASH_ERASE_FAILED",
                "erasing the storage partition failed; retry, and check the flash driver",
                .unknown)
        }
    }
}

extension SMPGroupError {
    /// The error a device reports for `code`, e.g. `.zephyrBasic(.flashOpenFailed)`; also a pattern that matches it
    /// (`case .groupError(.zephyrBasic(.flashOpenFailed))`).
    public static func zephyrBasic(_ code: ZephyrBasicGroupError) -> SMPGroupError { SMPGroupError(code) }
}
