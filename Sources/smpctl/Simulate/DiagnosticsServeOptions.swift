import ArgumentParser
import SMPSimulator

/// `smpctl simulate` options for the statistics and enumeration groups. (The Mynewt log, crash
/// and run groups come with `--mynewt`.)
struct DiagnosticsServeOptions: ParsableArguments {
    @Flag(help: "Name the statistics s0, s1... as a device built without statistic names does.")
    var syntheticStatNames = false

    @Flag(help: "Leave the statistics group (2) out (its requests answer rc 8).")
    var noStatistics = false

    @Flag(help: "Leave the enumeration group (10) out, as on Zephyr < 3.5 (it is left out anyway with --mynewt or --flavour legacy).")
    var noEnumeration = false

    @Option(help: ArgumentHelp(
        "Add a statistics group NAME with COUNT counters (repeatable), e.g. flash_sim_stats:60: with a small --buf-size its answer does not fit and is refused with MGMT_ERR_EMSGSIZE, as Zephyr does.",
        valueName: "name:count"))
    var statGroup: [String] = []

    func validate() throws {
        _ = try addedGroups()
    }

    /// The `--stat-group` groups.
    private func addedGroups() throws -> [SimulatedStatisticsGroup] {
        try statGroup.map { text in
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, let count = Int(parts[1]), (1...1000).contains(count) else {
                throw ValidationError("--stat-group \(text): expected NAME:COUNT with COUNT from 1 to 1000, e.g. flash_sim_stats:60")
            }
            return SimulatedStatisticsGroup.numbered(name: String(parts[0]), count: count)
        }
    }

    /// Applies the options to a device's configuration.
    func apply(to configuration: inout VirtualDeviceConfiguration) {
        configuration.statistics?.groups += (try? addedGroups()) ?? []
        if noStatistics { configuration.statistics = nil }
        if syntheticStatNames { configuration.statistics?.syntheticNames = true }
        if noEnumeration { configuration.enumeration = false }
    }
}
