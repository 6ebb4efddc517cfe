import ArgumentParser
import SMPSimulator

/// `smpctl simulate`'s shell, settings and Zephyr basic options.
struct SimulateShellSettingsOptions: ParsableArguments {
    @Flag(help: "Put shell return codes in rc instead of ret (MCUMGR_GRP_SHELL_LEGACY_RC_RETURN_CODE).")
    var shellLegacyRc = false

    @Flag(help: "Leave the shell group (9) out (its requests answer rc 8).")
    var noShell = false

    @Flag(help: "Leave the settings group (3) out (its requests answer rc 8).")
    var noSettings = false

    @Flag(help: "Leave the Zephyr basic group (63, erase storage) out (its requests answer rc 8).")
    var noZephyrBasic = false

    /// Turns the groups off or changes them as the flags say.
    func apply(to configuration: inout VirtualDeviceConfiguration) {
        if shellLegacyRc { configuration.shell?.legacyReturnCode = true }
        if noShell { configuration.shell = nil }
        if noSettings { configuration.settings = nil }
        if noZephyrBasic { configuration.zephyrBasic = false }
    }
}
