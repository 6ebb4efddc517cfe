import SMP

extension MCUbootRecoveryOptions {
    /// The hint for a "not supported" answer to `request` from MCUboot's serial recovery: the
    /// bootloader's option that adds the command, or that the recovery has no such command; either
    /// way, `smpctl os reset` reaches the application.
    static func hint(for request: SMPRequestSummary) -> String {
        if let option = enablingOption(for: request) {
            return "MCUboot's serial recovery answers: it has this command only when built with \(option) (in the bootloader's configuration, not the application's); or reset into the application with `smpctl os reset`"
        }
        return "MCUboot's serial recovery answers, and it has no such command (it lists and uploads images and resets; with options it also echoes, reports parameters, marks images, shows slot info and erases storage): reset into the application with `smpctl os reset` to use it"
    }
}
