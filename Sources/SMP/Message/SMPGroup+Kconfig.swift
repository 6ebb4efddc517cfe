extension SMPGroup {
    /// Where a firmware turns this group on, for the hint of a "not supported" answer.
    public var enablingOption: String {
        switch self {
        case .os: "CONFIG_MCUMGR_GRP_OS and the command's own option (e.g. CONFIG_MCUMGR_GRP_OS_INFO, _DATETIME, _TASKSTAT, _MCUMGR_PARAMS, _BOOTLOADER_INFO)"
        case .image: "CONFIG_MCUMGR_GRP_IMG"
        case .statistics: "CONFIG_MCUMGR_GRP_STAT"
        case .settings: "CONFIG_MCUMGR_GRP_SETTINGS"
        case .fileSystem: "CONFIG_MCUMGR_GRP_FS (status: CONFIG_MCUMGR_GRP_FS_FILE_STATUS; hashes: CONFIG_MCUMGR_GRP_FS_CHECKSUM_HASH)"
        case .shell: "CONFIG_MCUMGR_GRP_SHELL"
        case .enumeration: "CONFIG_MCUMGR_GRP_ENUM (Zephyr 3.5 or later; `smpctl groups` probes devices without it)"
        case .zephyrBasic: "CONFIG_MCUMGR_GRP_ZBASIC with CONFIG_MCUMGR_GRP_ZBASIC_STORAGE_ERASE"
        case .suit: "CONFIG_MGMT_SUITFU_GRP_SUIT (nRF Connect SDK)"
        case .log, .crash, .split, .run: "a Mynewt group: Zephyr has no such group"
        default: "CONFIG_MCUMGR_GRP_* options"
        }
    }
}
