/// Settings group (3), Zephyr `enum settings_mgmt_ret_code_t`; v1 translation from
/// `settings_mgmt.c` (KEY_TOO_LONG → EINVAL, KEY_NOT_FOUND and READ_NOT_SUPPORTED → ENOENT,
/// everything else EUNKNOWN).
///
/// Each case names one `err.rc` value; ``SMPGroupErrorCode/name`` gives Zephyr's enumerator name.
public enum SettingsGroupError: Int64, SMPGroupErrorCode {
    /// `SETTINGS_MGMT_ERR_OK` (0).
    case ok = 0
    /// `SETTINGS_MGMT_ERR_UNKNOWN` (1).
    case unknown = 1
    /// `SETTINGS_MGMT_ERR_KEY_TOO_LONG` (2).
    case keyTooLong = 2
    /// `SETTINGS_MGMT_ERR_KEY_NOT_FOUND` (3).
    case keyNotFound = 3
    /// `SETTINGS_MGMT_ERR_READ_NOT_SUPPORTED` (4).
    case readNotSupported = 4
    /// `SETTINGS_MGMT_ERR_ROOT_KEY_NOT_FOUND` (5).
    case rootKeyNotFound = 5
    /// `SETTINGS_MGMT_ERR_WRITE_NOT_SUPPORTED` (6).
    case writeNotSupported = 6
    /// `SETTINGS_MGMT_ERR_DELETE_NOT_SUPPORTED` (7).
    case deleteNotSupported = 7
    /// `SETTINGS_MGMT_ERR_SAVE_NOT_SUPPORTED` (8).
    case saveNotSupported = 8

    public static let group = SMPGroup.settings
    public static let prefix = "SETTINGS_MGMT_ERR_"

    public var info: SMPGroupErrorInfo {
        switch self {
        case .ok: .init("OK", "success: the settings group reported no error", .ok)
        case .unknown:
            .init(
                "UNKNOWN",
                "the settings group reported an unspecified error; check the device's log output",
                .unknown)
        case .keyTooLong:
            .init(
                "KEY_TOO_LONG",
                "the setting name is longer than the device accepts (MCUMGR_GRP_SETTINGS_NAME_LEN); use a "
                    + "shorter name or raise the limit",
                .invalidValue)
        case .keyNotFound:
            .init(
                "KEY_NOT_FOUND",
                "the device has no setting with that name; check the full path, such as \"subsys/key\"",
                .noEntry)
        case .readNotSupported:
            .init(
                "READ_NOT_SUPPORTED",
                "the handler of this setting cannot read it back (it has no get function)",
                .noEntry)
        case .rootKeyNotFound:
            .init(
                "ROOT_KEY_NOT_FOUND",
                "no settings handler is registered for the name's first component (before the first '/'); "
                    + "check the name",
                .unknown)
        case .writeNotSupported:
            .init("WRITE_NOT_SUPPORTED", "the handler of this setting does not accept writes", .unknown)
        case .deleteNotSupported:
            .init("DELETE_NOT_SUPPORTED", "the handler of this setting does not support deleting it", .unknown)
        case .saveNotSupported:
            .init(
                "SAVE_NOT_SUPPORTED",
                "the device cannot save settings to persistent storage (no storage backend)",
                .unknown)
        }
    }
}

extension SMPGroupError {
    /// The error a device reports for `code`, e.g. `.settings(.keyNotFound)`; also a pattern that matches it
    /// (`case .groupError(.settings(.keyNotFound))`).
    public static func settings(_ code: SettingsGroupError) -> SMPGroupError { SMPGroupError(code) }
}
