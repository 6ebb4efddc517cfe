import NordicDFU
import SMPFirmware
import SMPFleet
import SMPKit

/// `smpctl upgrade PACKAGE` for many devices (`--targets`, a selector) with a Nordic DFU package:
/// each device's bootloader is reached through its own connection (its serial port, or over
/// Bluetooth LE with buttonless entry) and gets the images in turn; the run is shown, summarised
/// and reported like an SMP upgrade of many devices (docs/many-devices.md).
enum NordicDFUFleetUpgrade {
    /// Installs `images` (a package for `packageProtocol`) on every device of `run`; each device
    /// is reached on its own, so one that fails does not stop the others.
    static func run(
        _ run: FleetCommandRun, images: [DFUUpgradeImage], packageProtocol: NordicDFUProtocol, file: String, resetTimeout: Duration,
        resume: String
    ) async throws {
        try await run.run(file: file, operation: .own { target, _, recorder, logger in
            let connector = NordicDFUConnector(target.connection, expecting: packageProtocol, logger: logger)
            let upgrade = NordicDFUUpgrade(
                connect: { try await connector.open() }, packageProtocol: packageProtocol, reconnectTimeout: resetTimeout
            ) { event in
                FleetUpgrade.forward(event, to: recorder)
            }
            do {
                _ = try await upgrade.run(images)
            } catch {
                throw UpgradeFailure.cliError(error, file: file, resume: resume)
            }
            return .succeeded
        })
    }
}
