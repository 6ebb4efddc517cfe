import NordicDFU
import SMPSimulator

/// What `simulate --nordic-dfu` needs of the server of a Secure or legacy DFU bootloader.
protocol NordicDFUSimulatorServer: Actor {
    /// Opens the pseudo-terminal and starts serving; returns the path to open.
    func start() throws(SimulatorServerError) -> String
    /// Stops serving.
    func stop() async
    /// The target's statistics, for `-v`.
    var statisticsSummary: String { get }
}

extension SecureDFUPTYServer: NordicDFUSimulatorServer {
    var statisticsSummary: String { "\(target.statistics)" }
}

extension LegacyDFUSerialPTYServer: NordicDFUSimulatorServer {
    var statisticsSummary: String { "\(target.statistics) restarts=\(link.restarts)" }
}

extension NordicDFUSimulateOptions {
    /// The legacy bootloader `--dfu-legacy` serves: an nRF5 SDK 11 bootloader with the SoftDevice
    /// of `--dfu-soft-device`, taking any device type, revision and application version.
    func legacyTarget() throws -> LegacyDFUTarget {
        // softDeviceID() is at most 0xFFFF.
        LegacyDFUTarget(configuration: LegacyDFUTarget.Configuration(softDeviceID: UInt16(truncatingIfNeeded: try softDeviceID())))
    }

    /// `Nordic legacy DFU serial bootloader (SoftDevice 0xB7)`.
    var legacyDescription: String { "Nordic legacy DFU serial bootloader (nRF5 SDK 11, SoftDevice \(dfuSoftDevice))" }
}
