extension SMPErrorTable {
    /// OS group (0), Zephyr `enum os_mgmt_err_code_t`; v1 translation from `os_mgmt.c`.
    static let os = SMPErrorTable(group: 0, prefix: "OS_MGMT_ERR_", title: "OS", entries: [
        .init(0, "OK", "success: the OS group reported no error", .ok),
        .init(1, "UNKNOWN", "the OS group reported an unspecified error; check the device's log output", .unknown),
        .init(2, "INVALID_FORMAT",
              "the info format string has a character the device does not support (valid: s n r v m p i o a, "
              + "and b only with MCUMGR_GRP_OS_INFO_BUILD_DATE_TIME)", .invalidValue),
        .init(3, "QUERY_YIELDS_NO_ANSWER",
              "the device does not know this bootloader-info query; omit the query, or ask for \"mode\"",
              .noEntry),
        .init(4, "RTC_NOT_SET",
              "the device's real-time clock has never been set; set it with `smpctl os datetime --set`",
              .noEntry),
        .init(5, "RTC_COMMAND_FAILED",
              "the device's real-time clock driver failed to read or set the time; check the RTC hardware "
              + "and the devicetree `rtc` alias", .unknown),
        .init(6, "QUERY_RESPONSE_VALUE_NOT_VALID",
              "the device recognised the query but has no valid value to answer it with", .unknown),
        .init(7, "HEAP_STATS_FETCH_FAILED", "the device failed to read its heap statistics", .unknown),
    ])
}
