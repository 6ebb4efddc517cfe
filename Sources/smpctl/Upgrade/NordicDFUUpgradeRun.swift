import ArgumentParser
import NordicDFU
import SMPFirmware
import SMPKit

/// `smpctl upgrade PACKAGE` for an nRF5 SDK Nordic DFU package: the bootloader the connection
/// names receives each image, shown by the same reporter (plan, steps, progress, JSON lines,
/// result, "run it again" on Ctrl-C) as an MCUboot or SUIT upgrade. A Secure package goes to a
/// Secure DFU bootloader, a legacy one to a legacy bootloader over serial HCI packets; the
/// package's kind picks the protocol tried first, and the plan refuses a bootloader of the other;
/// a bare application (`--bare`) goes to a legacy bootloader.
struct NordicDFUUpgradeRun {
    /// The command as given.
    let command: UpgradeCommand

    /// Installs `package`, or plans it (`--dry-run`).
    func run(_ package: NordicDFUPackage) async throws {
        let output = command.global.output
        try refuseWhatDoesNotApply()
        let invocation = try await command.global.invocation()
        let packageProtocol: NordicDFUProtocol = package.kind == .secure ? .secure : .legacy
        let images = package.images.map(DFUUpgradeImage.init)
        if let run = invocation.fleetRun {
            guard !command.dryRun else {
                throw fail(CLIError(
                    .usage, "--dry-run plans a Nordic DFU package for one device",
                    hint: "name one device with -c to see its plan; without --dry-run every device is upgraded"))
            }
            try await NordicDFUFleetUpgrade.run(
                run, images: images, packageProtocol: packageProtocol, file: command.file, resetTimeout: .seconds(command.resetTimeout),
                resume: ShellQuoting.commandLine(["smpctl"] + CommandLine.arguments.dropFirst()))
            return
        }
        let connection: ConnectionString
        do {
            connection = try invocation.settings.get().connection
        } catch {
            throw fail(error)
        }
        let logger = command.global.link.makeLogger(label: "nordic.dfu")
        let reporter = UpgradeReporter(output: output, file: command.file, dryRun: command.dryRun, command: invocation.commandLine)
        let connector = NordicDFUConnector(connection, expecting: packageProtocol, logger: logger)
        let upgrade = NordicDFUUpgrade(
            connect: { try await connector.open() }, packageProtocol: packageProtocol, reconnectTimeout: .seconds(command.resetTimeout)
        ) { reporter.show($0) }
        do {
            if command.dryRun {
                reporter.finish(.planned(try await upgrade.plan(images)))
            } else {
                reporter.finish(.finished(try await Interruption.cancellingOnSignals { try await upgrade.run(images) }))
            }
        } catch {
            reporter.abandon()
            throw fail(UpgradeFailure.cliError(
                error, file: command.file, during: reporter.currentStep, of: reporter.currentPlan, resume: command.resumeCommand(invocation)))
        }
    }

    /// Refuses the options that steer an SMP upgrade, which a DFU bootloader has no use for: it
    /// checks, installs and starts the image itself.
    private func refuseWhatDoesNotApply() throws {
        let given: [(String, Bool)] = [
            ("--mode", command.mode != .testAndConfirm), ("--erase-settings", command.eraseSettings), ("--newer-only", command.newerOnly),
            ("--via-bootloader", command.viaBootloader), ("--swap-time", command.swapTime != 0),
            ("--window", command.tuning.window != nil), ("--align", command.tuning.alignment != nil), ("--restart", command.tuning.restart),
        ]
        let misplaced = given.filter(\.1).map(\.0)
        guard misplaced.isEmpty else {
            throw fail(CLIError(
                .usage, "\(misplaced.joined(separator: ", ")) \(misplaced.count == 1 ? "does" : "do") not apply to a Nordic DFU package",
                hint: "the bootloader checks, installs and starts each image itself: leave \(misplaced.count == 1 ? "it" : "them") out"))
        }
    }

    /// Reports `error` and returns the exit code to throw.
    private func fail(_ error: any Error) -> ExitCode {
        let failure = CLIError(error)
        command.global.output.report(failure)
        return ExitCode(failure.status.rawValue)
    }
}
