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
}
