import ArgumentParser
import SMPSimulator

/// `smpctl simulate`'s MCUboot serial recovery: whether the device has it, starts in it, and
/// what it answers (MCUboot's Kconfig choices; the defaults are those of the mps2
/// `serial_recovery` fixture).
struct RecoverySimulateOptions: ParsableArguments {
    @Flag(help: "Start in MCUboot serial recovery (implies --serial-recovery); 'os reset' from there boots the application.")
    var bootloaderRecovery = false

    @Flag(help: "Give the device MCUboot serial recovery: 'os reset --boot-mode bootloader' (boot mode 1) restarts into it.")
    var serialRecovery = false

    @Flag(help: "Recovery answers os echo (CONFIG_BOOT_MGMT_ECHO; off by default: MGMT_ERR_ENOTSUP).")
    var recoveryEcho = false

    @Flag(help: "Recovery's image list carries state flags and image state write works (CONFIG_BOOT_SERIAL_IMG_GRP_IMAGE_STATE).")
    var recoveryImageState = false

    @Flag(help: "Recovery's image list leaves out the hashes (CONFIG_BOOT_SERIAL_IMG_GRP_HASH off).")
    var recoveryNoHash = false

    @Flag(help: "Recovery answers image slot info (CONFIG_BOOT_SERIAL_IMG_GRP_SLOT_INFO).")
    var recoverySlotInfo = false

    @Flag(help: "Recovery answers Zephyr basic storage erase (CONFIG_BOOT_MGMT_CUSTOM_STORAGE_ERASE).")
    var recoveryStorageErase = false

    @Flag(help: "Recovery does not answer MCUmgr parameters (CONFIG_BOOT_MGMT_MCUMGR_PARAMS off).")
    var recoveryNoParams = false

    @Option(help: ArgumentHelp(
        "Recovery's receive buffer (CONFIG_BOOT_SERIAL_MAX_RECEIVE_SIZE), reported as buf_size.", valueName: "bytes"))
    var recoveryBufSize: Int = 1024

    @Option(help: ArgumentHelp("The buf_count recovery's MCUmgr parameters report.", valueName: "count"))
    var recoveryBufCount: Int = 1

    @Option(help: ArgumentHelp(
        "Recovery's flash write unit: chunks are stored in whole units and answered with the aligned offset.", valueName: "bytes"))
    var recoveryWriteAlignment: Int = 4

    @Flag(help: "The application does not answer os bootloader info (CONFIG_MCUMGR_GRP_OS_BOOTLOADER_INFO off).")
    var noBootloaderInfo = false

    /// Whether the device has serial recovery.
    var enabled: Bool { bootloaderRecovery || serialRecovery }

    func validate() throws {
        if !enabled {
            let given = [
                ("recovery-echo", recoveryEcho), ("recovery-image-state", recoveryImageState), ("recovery-no-hash", recoveryNoHash),
                ("recovery-slot-info", recoverySlotInfo), ("recovery-storage-erase", recoveryStorageErase),
                ("recovery-no-params", recoveryNoParams), ("recovery-buf-size", recoveryBufSize != 1024),
                ("recovery-buf-count", recoveryBufCount != 1), ("recovery-write-alignment", recoveryWriteAlignment != 4),
            ]
            for (name, given) in given where given {
                throw ValidationError("--\(name) shapes MCUboot serial recovery: give --serial-recovery or --bootloader-recovery too")
            }
        }
        try NumericRange.recoveryBufSize.check(recoveryBufSize)
        try NumericRange.recoveryBufCount.check(recoveryBufCount)
        try NumericRange.recoveryWriteAlignment.check(recoveryWriteAlignment)
    }

    /// Sets the recovery and bootloader info of a device configuration.
    func apply(to configuration: inout VirtualDeviceConfiguration) {
        configuration.bootloaderInfo = !noBootloaderInfo
        guard enabled else { return }
        configuration.recovery = MCUbootRecoveryConfiguration(
            echo: recoveryEcho, imageState: recoveryImageState, imageHash: !recoveryNoHash, slotInfo: recoverySlotInfo,
            storageErase: recoveryStorageErase, bufferSize: recoveryBufSize, bufferCount: recoveryBufCount,
            parameters: !recoveryNoParams, writeAlignment: recoveryWriteAlignment)
        configuration.startsInRecovery = bootloaderRecovery
    }
}
