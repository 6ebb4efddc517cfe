extension SMPErrorTable {
    /// Settings group (3), Zephyr `enum settings_mgmt_ret_code_t`; v1 translation from
    /// `settings_mgmt.c` (KEY_TOO_LONG → EINVAL, KEY_NOT_FOUND and READ_NOT_SUPPORTED → ENOENT,
    /// everything else EUNKNOWN).
    static let settings = SMPErrorTable(group: 3, prefix: "SETTINGS_MGMT_ERR_", title: "settings", entries: [
        .init(0, "OK", "success: the settings group reported no error", .ok),
        .init(1, "UNKNOWN", "the settings group reported an unspecified error; check the device's log output",
              .unknown),
        .init(2, "KEY_TOO_LONG",
              "the setting name is longer than the device accepts (MCUMGR_GRP_SETTINGS_NAME_LEN); use a "
              + "shorter name or raise the limit", .invalidValue),
        .init(3, "KEY_NOT_FOUND",
              "the device has no setting with that name; check the full path, such as \"subsys/key\"",
              .noEntry),
        .init(4, "READ_NOT_SUPPORTED",
              "the handler of this setting cannot read it back (it has no get function)", .noEntry),
        .init(5, "ROOT_KEY_NOT_FOUND",
              "no settings handler is registered for the name's first component (before the first '/'); "
              + "check the name", .unknown),
        .init(6, "WRITE_NOT_SUPPORTED", "the handler of this setting does not accept writes", .unknown),
        .init(7, "DELETE_NOT_SUPPORTED", "the handler of this setting does not support deleting it", .unknown),
        .init(8, "SAVE_NOT_SUPPORTED",
              "the device cannot save settings to persistent storage (no storage backend)", .unknown),
    ])
}
