extension SMPErrorTable {
    /// Enumeration group (10), Zephyr `enum enum_mgmt_err_code_t`; v1 translation from
    /// `enum_mgmt.c` (only TOO_MANY_GROUP_ENTRIES → EINVAL, everything else EUNKNOWN).
    static let enumeration = SMPErrorTable(group: 10, prefix: "ENUM_MGMT_ERR_", title: "enumeration", entries: [
        .init(0, "OK", "success: the enumeration group reported no error", .ok),
        .init(1, "UNKNOWN", "the enumeration group reported an unspecified error; check the device's log output",
              .unknown),
        .init(2, "TOO_MANY_GROUP_ENTRIES",
              "more groups were asked about than the device can handle in one request; ask about fewer groups "
              + "at a time", .invalidValue),
        .init(3, "INSUFFICIENT_HEAP_FOR_ENTRIES",
              "the device has too little heap to list the requested groups; ask about fewer groups at a time",
              .unknown),
        .init(4, "INDEX_TOO_LARGE",
              "the index is past the last group; indexes run from 0 to the group count minus 1", .unknown),
    ])
}
