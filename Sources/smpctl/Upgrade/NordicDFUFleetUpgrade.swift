import NordicDFU
import SMPFirmware
import SMPFleet
import SMPKit

/// `smpctl upgrade PACKAGE` for many devices (`--targets`, a selector) with a Nordic DFU package:
/// each device's bootloader is reached through its own connection (its serial port, or over
/// Bluetooth LE with buttonless entry) and gets the images in turn; the run is shown, summarised
/// and reported like an SMP upgrade of many devices (docs/many-devices.md).
enum NordicDFUFleetUpgrade {
    /// Installs `images` on every device of `run`; devices are rebooted into their bootloaders
    /// independently, so one that fails does not stop the others.
    static func run(
        _ run: FleetCommandRun, images: [DFUUpgradeImage], file: String, resetTimeout: Duration, resume: String
    ) async throws {
        try await run.run(file: file, operation: .own { target, _, recorder, logger in
            let connector = NordicDFUConnector(target.connection, logger: logger)
            let upgrade = NordicDFUUpgrade(connect: { try await connector.open() }, reconnectTimeout: resetTimeout) { event in
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
