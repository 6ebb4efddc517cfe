extension SMPErrorTable {
    /// Statistics group (2), Zephyr `enum stat_mgmt_err_code_t`; v1 translation from `stat_mgmt.c`.
    ///
    /// Zephyr reports these with `err.group = 63`; see ``SMPErrorCatalog/table(forGroup:requestGroup:)``.
    static let statistics = SMPErrorTable(group: 2, prefix: "STAT_MGMT_ERR_", title: "statistics", entries: [
        .init(0, "OK", "success: the statistics group reported no error", .ok),
        .init(1, "UNKNOWN", "the statistics group reported an unspecified error; check the device's log output",
              .unknown),
        .init(2, "INVALID_GROUP",
              "the device has no statistics group with that name; list its statistics groups first", .noEntry),
        .init(3, "INVALID_STAT_NAME",
              "the device has no statistics group or entry with that name; list its statistics groups first "
              + "(names are case-sensitive)", .noEntry),
        .init(4, "INVALID_STAT_SIZE",
              "a statistic has a size the device cannot encode (a firmware bug in the statistics definition)",
              .invalidValue),
        .init(5, "WALK_ABORTED",
              "the device stopped walking the statistics (e.g. the response buffer filled up)", .unknown),
    ])
}
