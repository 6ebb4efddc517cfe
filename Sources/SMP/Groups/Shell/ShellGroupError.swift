/// Shell group (9), Zephyr `enum shell_mgmt_err_code_t` (older headers spell the prefix
/// `SHELL_MGMT_RET_RC_`); v1 translation from `shell_mgmt.c`.
///
/// Each case names one `err.rc` value; ``SMPGroupErrorCode/name`` gives Zephyr's enumerator name.
public enum ShellGroupError: Int64, SMPGroupErrorCode {
    /// `SHELL_MGMT_ERR_OK` (0).
    case ok = 0
    /// `SHELL_MGMT_ERR_UNKNOWN` (1).
    case unknown = 1
    /// `SHELL_MGMT_ERR_COMMAND_TOO_LONG` (2).
    case commandTooLong = 2
    /// `SHELL_MGMT_ERR_EMPTY_COMMAND` (3).
    case emptyCommand = 3

    public static let group = SMPGroup.shell
    public static let prefix = "SHELL_MGMT_ERR_"

    public var info: SMPGroupErrorInfo {
        switch self {
        case .ok: .init("OK", "success: the shell group reported no error", .ok)
        case .unknown:
            .init("UNKNOWN", "the shell group reported an unspecified error; check the device's log output", .unknown)
        case .commandTooLong:
            .init(
                "COMMAND_TOO_LONG",
                "the command line is longer than the device's shell buffer (CONFIG_SHELL_CMD_BUFF_SIZE); "
                    + "shorten it or raise the limit",
                .invalidValue)
        case .emptyCommand:
            .init("EMPTY_COMMAND", "the command line is empty; give a command and its arguments", .invalidValue)
        }
    }
}

extension SMPGroupError {
    /// The error a device reports for `code`, e.g. `.shell(.emptyCommand)`; also a pattern that matches it
    /// (`case .groupError(.shell(.emptyCommand))`).
    public static func shell(_ code: ShellGroupError) -> SMPGroupError { SMPGroupError(code) }
}
