extension SMPErrorTable {
    /// Zephyr basic group (63), Zephyr `enum zephyr_basic_group_err_code_t`
    /// (`ZEPHYRBASIC_MGMT_ERR_*`; an older header spelled them `ZEPHYR_MGMT_GRP_CMD_RC_*`).
    ///
    /// v1 translation from `basic_mgmt.c`, except that Zephyr translates FLASH_CONFIG_QUERY_FAIL and
    /// FLASH_ERASE_FAILED to `MGMT_ERR_EOK`, so a v1 client sees those failures as success. This
    /// catalog never maps a failure to success and uses EUNKNOWN for them.
    static let zephyrBasic = SMPErrorTable(group: 63, prefix: "ZEPHYRBASIC_MGMT_ERR_", title: "Zephyr basic",
                                           entries: [
        .init(0, "OK", "success: the Zephyr basic group reported no error", .ok),
        .init(1, "UNKNOWN", "the Zephyr basic group reported an unspecified error; check the device's log output",
              .unknown),
        .init(2, "FLASH_OPEN_FAILED",
              "the device could not open its storage partition; check that the firmware defines "
              + "storage_partition", .noEntry),
        .init(3, "FLASH_CONFIG_QUERY_FAIL",
              "the device could not find the flash device of its storage partition", .unknown),
        .init(4, "FLASH_ERASE_FAILED",
              "erasing the storage partition failed; retry, and check the flash driver", .unknown),
    ])
}
