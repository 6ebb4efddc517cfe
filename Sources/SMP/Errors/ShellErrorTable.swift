extension SMPErrorTable {
    /// Shell group (9), Zephyr `enum shell_mgmt_err_code_t` (older headers spell the prefix
    /// `SHELL_MGMT_RET_RC_`); v1 translation from `shell_mgmt.c`.
    static let shell = SMPErrorTable(group: 9, prefix: "SHELL_MGMT_ERR_", title: "shell", entries: [
        .init(0, "OK", "success: the shell group reported no error", .ok),
        .init(1, "UNKNOWN", "the shell group reported an unspecified error; check the device's log output",
              .unknown),
        .init(2, "COMMAND_TOO_LONG",
              "the command line is longer than the device's shell buffer (CONFIG_SHELL_CMD_BUFF_SIZE); "
              + "shorten it or raise the limit", .invalidValue),
        .init(3, "EMPTY_COMMAND", "the command line is empty; give a command and its arguments", .invalidValue),
    ])
}
