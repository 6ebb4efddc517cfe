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
    var statisticsSummary: String { "\(target.statistics) restarts=\(link.restarts) acknowledgementsLost=\(link.acknowledgementsLost)" }
}

extension NordicDFUSimulateOptions {
    /// The legacy bootloader `--dfu-legacy` serves: an nRF5 SDK 11 bootloader with the SoftDevice
    /// of `--dfu-soft-device`, taking any device type, revision and application version (with
    /// `--dfu-sdk6`, one of SDK 6 or older, which takes no init packet); with `seed`, the
    /// packets of BLE writes it loses (`--dfu-lose-writes`; over serial the HCI layer loses
    /// acknowledgements instead).
    func legacyTarget(losingWritesWith seed: UInt64? = nil) throws -> LegacyDFUTarget {
        // softDeviceID() is at most 0xFFFF.
        LegacyDFUTarget(configuration: LegacyDFUTarget.Configuration(
            version1: dfuSDK6, softDeviceID: UInt16(truncatingIfNeeded: try softDeviceID()),
            faults: seed.map { LegacyDFUTargetFaults(seed: $0, lostPacketFraction: dfuLoseWrites) } ?? LegacyDFUTargetFaults()))
    }

    /// `nRF5 SDK 11, SoftDevice 0xB7`, or `nRF5 SDK 6: no init packet`.
    var legacyGeneration: String { dfuSDK6 ? "nRF5 SDK 6: no init packet" : "nRF5 SDK 11, SoftDevice \(dfuSoftDevice)" }

    /// `Nordic legacy DFU serial bootloader (nRF5 SDK 11, SoftDevice 0xB7)`.
    var legacyDescription: String { "Nordic legacy DFU serial bootloader (\(legacyGeneration))" }
}
