import SMP

/// A device that answers a shell command with "not supported" has no shell management group
/// (`CONFIG_MCUMGR_GRP_SHELL`), though it may well run a shell on its UART: smpctl says so once
/// and names where that shell is instead.
enum ShellGroupMissing {
    /// The failure to report for `error`, a shell command's: ``cliError(_:endpoint:)`` when the
    /// device has no shell group, else the error as every command reports it.
    static func failure(_ error: any Error, endpoint: String) -> CLIError {
        cliError(error, endpoint: endpoint) ?? CLIError(error)
    }

    /// The failure to report for `error` when it is the shell group's "not supported", else nil.
    /// `endpoint` is the transport's (`serial:/dev/ttyACM0`): a serial port is named in the hint.
    static func cliError(_ error: any Error, endpoint: String) -> CLIError? {
        guard case .device(let deviceError, let request)? = error as? SMPError, case .returnCode(.notSupported, _, _) = deviceError,
            request.group == .shell
        else { return nil }
        let message = "\(request): the device has no shell management group (it answered \(SMPReturnCode.notSupported.name) (\(SMPReturnCode.notSupported.rawValue)))"
        let enable = "for `smpctl shell`, build the firmware with CONFIG_MCUMGR_GRP_SHELL=y"
        let hint: String
        if endpoint.hasPrefix("serial:") {
            let port = endpoint.dropFirst("serial:".count)
            hint = "its own shell, if it has one, is on this serial port: quit smpctl and open the port with a terminal program "
                + "(`picocom -b 115200 \(port)` or `screen \(port) 115200`); \(enable)"
        } else {
            hint = "its own shell, if it has one, is on its UART: open it with a terminal program (picocom, screen); \(enable)"
        }
        return CLIError(.deviceError, message, hint: hint, deviceError: deviceError)
    }
}
