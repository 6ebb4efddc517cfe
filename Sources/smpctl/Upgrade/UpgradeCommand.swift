import ArgumentParser
import FoundationEssentials
import SMP
import SMPFirmware
import SMPFleet
import SMPKit

/// `smpctl upgrade FILE [--mode M] [--dry-run] …`: the whole firmware upgrade in one command.
struct UpgradeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Install firmware: upload, mark, reset, check and confirm, in one command.",
        discussion: """
            FILE is a signed MCUboot image (.bin, or Intel HEX .hex) or an nRF Connect SDK package (dfu_application.zip, \
            with application and network core images, or DirectXIP slot pairs); or, for a device whose \
            bootloader is SUIT (nRF54H20), a SUIT envelope (.suit) or dfu_suit.zip: caches, envelope, \
            the resources the device asks for, its restart, and a check of the manifest digest; or, for \
            an nRF5 SDK bootloader (Secure DFU, SDK 12 to 17, or legacy DFU, SDK 11 and older, the \
            Adafruit bootloader) over Bluetooth LE or serial, a Nordic DFU package (nrfutil's .zip): \
            each image and its init packet, in the SDK's order; the bootloader checks, installs and \
            starts it. With --bare, FILE is an application without an init packet for a legacy \
            bootloader of SDK 6 or older (docs/nordic-dfu.md).

            The steps: read MCUmgr parameters, the bootloader's mode and the image list; plan (skip \
            what the device already holds or runs, pick the DirectXIP binary for the free slot, \
            network core first); upload each image; optionally erase the settings; mark per \
            --mode; reset; wait for the device; check that the new images run; confirm.

            A device whose bootloader mode is not reported is planned by its image header: RAM_LOAD \
            means upload, reset, check (MCUboot runs the highest version); a device that refuses the \
            test mark is upgraded without marks.

            Through the bootloader: when MCUboot's serial recovery answers (the device was reset into \
            it, or a button keeps it there), each image is written to its primary slot, the device is \
            reset, and the application must then run the new version. --via-bootloader gets there \
            from the running application: it resets it with boot mode 1 (bootloader), waits for the \
            recovery (a USB device is found again by its serial number), installs, and returns to the \
            application.

            Modes: test-and-confirm (default: MCUboot reverts an image that does not come up), \
            confirm-only, test-only (the firmware confirms itself), upload-only (no mark, no reset).

            An interrupted upgrade (Ctrl-C, a lost link, a killed process) continues where it \
            stopped when the same command runs again; but MCUboot's serial recovery does not resume \
            an upload: the primary slot is left incomplete (do not reset the device then), and the \
            same command writes the image again from the start. --dry-run prints the plan and \
            changes nothing. With --json, every step, progress and note is a JSON line on standard \
            output.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(
        "The firmware: an MCUboot image, a dfu_application.zip, a SUIT envelope, a dfu_suit.zip or a Nordic DFU package.", valueName: "file"),
        completion: .firmwareFile)
    var file: String

    @Option(help: ArgumentHelp("test-and-confirm, confirm-only, test-only or upload-only.", valueName: "mode"))
    var mode: UpgradeMode = .testAndConfirm

    @Flag(help: "Print the plan and stop; nothing is written to the device.")
    var dryRun = false

    @Flag(help: "Erase the application's settings after the upload, before the reset (Zephyr basic group).")
    var eraseSettings = false

    @Flag(help: "Have the device refuse an image that is not newer than the running one.")
    var newerOnly = false

    @Flag(help: "Install through MCUboot's serial recovery: reset the application into the bootloader (boot mode 1) first.")
    var viaBootloader = false

    @Flag(help: "FILE is a bare application (.bin, or .hex with one range) for a legacy Nordic DFU bootloader of nRF5 SDK 6 or older: sent without an init packet, as nRF Loader did.")
    var bare = false

    @Option(help: ArgumentHelp("Seconds MCUboot needs to swap before the device can answer (polling starts after it).", valueName: "seconds"))
    var swapTime: Double = 0

    @Option(help: ArgumentHelp("Seconds to wait in all for the device to come back after the reset.", valueName: "seconds"))
    var resetTimeout: Double = 120

    @OptionGroup var poll: SUITPollOptions

    @OptionGroup var tuning: UploadTuningOptions

    func validate() throws {
        try NumericRange.swapTime.check(swapTime)
        try NumericRange.resetTimeout.check(resetTimeout)
    }

    func run() async throws {
        let output = global.output
        let content: UpgradeContent
        do {
            switch try FirmwareFile.read(file, bare: bare) {
            case .smp(let package):
                content = try UpgradeContent(package)
            case .nordicDFU(let package):
                try await NordicDFUUpgradeRun(command: self).run(package)
                return
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            let failure = UpgradeFailure.cliError(error, file: file)
            output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
        let invocation = try await global.invocation()
        let options = UpgradeOptions(
            mode: mode, eraseAppSettings: eraseSettings, upload: tuning.chunkedUploadOptions(invocation), refuseOlder: newerOnly,
            swapTime: .seconds(swapTime), resetTimeout: .seconds(resetTimeout),
            suitPollWindow: poll.window, viaBootloader: viaBootloader, settingNames: .smpctl)
        if !dryRun, let run = invocation.fleetRun {
            try await upgradeMany(run, content: content, options: options)
            return
        }
        try await invocation.withClient { client, output in
            let reconnect: @Sendable () async throws -> SMPClient = { try await invocation.connect() }
            let reporter = UpgradeReporter(output: output, file: file, dryRun: dryRun, command: invocation.commandLine)
            let upgrade = FirmwareUpgrade(client: client, reconnect: reconnect, options: options) { reporter.show($0) }
            do {
                if dryRun {
                    reporter.finish(.planned(try await upgrade.plan(content)))
                } else {
                    reporter.finish(.finished(try await Interruption.cancellingOnSignals { try await upgrade.run(content) }))
                }
            } catch {
                reporter.abandon()
                throw UpgradeFailure.cliError(
                    error, file: file, during: reporter.currentStep, of: reporter.currentPlan, resume: resumeCommand(invocation))
            }
        }
    }

    /// Upgrades every device of a many-device run, each through its own connection.
    private func upgradeMany(_ run: FleetCommandRun, content: UpgradeContent, options: UpgradeOptions) async throws {
        let (logger, file) = (global.link.makeLogger(label: "smp"), file)
        let resume = ShellQuoting.commandLine(["smpctl"] + CommandLine.arguments.dropFirst())
        try await run.run(file: file) { client, target, _, recorder in
            let reconnect: @Sendable () async throws -> SMPClient = {
                try await SMPConnection.open(target.connection, logger: logger)
            }
            do {
                return try await FleetUpgrade.run(content, options: options, client: client, reconnect: reconnect, recorder: recorder)
            } catch {
                throw UpgradeFailure.cliError(error, file: file, resume: resume)
            }
        }
    }

    /// The command that continues this upgrade.
    func resumeCommand(_ invocation: Invocation) -> String {
        var words = ["smpctl", "upgrade", file]
        if mode != .testAndConfirm { words += ["--mode", mode.rawValue] }
        if eraseSettings { words.append("--erase-settings") }
        if viaBootloader { words.append("--via-bootloader") }
        words += poll.resumeArguments
        words += tuning.resumeArguments
        return invocation.commandLine(words)
    }
}

extension UpgradeMode: ExpressibleByArgument {}
