import SMPFirmware

extension UpgradeSettingNames {
    /// The upgrade settings as `smpctl upgrade` spells them: `--restart`, `--via-bootloader`…
    static let smpctl = UpgradeSettingNames(
        restart: "--restart", viaBootloader: "--via-bootloader", refuseOlder: "--newer-only", resetTimeout: "--reset-timeout", mode: "--mode")
}
