/// MCUboot's Kconfig options for the commands of its serial recovery, for the hint of a "not
/// supported" answer from it (the application's `CONFIG_MCUMGR_GRP_*` options mean nothing there).
public enum MCUbootRecoveryOptions {
    /// The option that adds `request`'s command to MCUboot's serial recovery, or nil when the
    /// recovery has no such command at all.
    public static func enablingOption(for request: SMPRequestSummary) -> String? {
        switch (request.group, request.command, request.operation) {
        case (.os, OSCommandID.echo, _): "CONFIG_BOOT_MGMT_ECHO"
        case (.os, OSCommandID.parameters, _): "CONFIG_BOOT_MGMT_MCUMGR_PARAMS"
        case (.image, ImageCommandID.state, .write): "CONFIG_BOOT_SERIAL_IMG_GRP_IMAGE_STATE"
        case (.image, ImageCommandID.slotInfo, _): "CONFIG_BOOT_SERIAL_IMG_GRP_SLOT_INFO"
        case (.zephyrBasic, 0, _): "CONFIG_ENABLE_MGMT_PERUSER with CONFIG_BOOT_MGMT_CUSTOM_STORAGE_ERASE"
        default: nil
        }
    }

    /// The hint for a "not supported" answer to `request` from MCUboot's serial recovery.
    public static func hint(for request: SMPRequestSummary) -> String {
        if let option = enablingOption(for: request) {
            return "MCUboot's serial recovery answers: it has this command only when built with \(option) (in the bootloader's configuration, not the application's); or reset into the application with `smpctl os reset`"
        }
        return "MCUboot's serial recovery answers, and it has no such command (it lists and uploads images and resets; with options it also echoes, reports parameters, marks images, shows slot info and erases storage): reset into the application with `smpctl os reset` to use it"
    }
}
