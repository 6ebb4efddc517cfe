import ArgumentParser
import SMPSimulator

/// `smpctl simulate --suit`: serve an nRF Connect SDK SUIT device instead of an MCUboot one.
struct SUITSimulateOptions: ParsableArguments {
    @Flag(help: "Be a SUIT device (nRF54H20-like): SUIT group 66, bootloader \"SUIT\", no image group.")
    var suit = false

    @Option(help: ArgumentHelp("Seconds a SUIT upload may pause between chunks before the device abandons it (default: never).", valueName: "seconds"))
    var suitChunkTimeout: Double?

    func validate() throws {
        try NumericRange.suitChunkTimeout.check(suitChunkTimeout)
    }

    /// Makes `configuration` a SUIT device when `--suit` is given.
    func apply(to configuration: inout VirtualDeviceConfiguration) {
        guard suit else { return }
        var suitConfiguration = SimulatedSUITConfiguration()
        suitConfiguration.interChunkTimeout = suitChunkTimeout.map { .seconds($0) }
        configuration.makeSUITDevice(suitConfiguration)
    }
}
