import ArgumentParser
import SMPSimulator

/// `smpctl simulate` options for the statistics and enumeration groups. (The Mynewt log, crash
/// and run groups come with `--mynewt`.)
struct DiagnosticsServeOptions: ParsableArguments {
    @Flag(help: "Name the statistics s0, s1… as a device built without statistic names does.")
    var syntheticStatNames = false

    @Flag(help: "Leave the statistics group (2) out (its requests answer rc 8).")
    var noStatistics = false

    @Flag(help: "Leave the enumeration group (10) out, as on Zephyr < 3.5 (it is left out anyway with --mynewt or --flavour legacy).")
    var noEnumeration = false

    /// Applies the options to a device's configuration.
    func apply(to configuration: inout VirtualDeviceConfiguration) {
        if noStatistics { configuration.statistics = nil }
        if syntheticStatNames { configuration.statistics?.syntheticNames = true }
        if noEnumeration { configuration.enumeration = false }
    }
}
