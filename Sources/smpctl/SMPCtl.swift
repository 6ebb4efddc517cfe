import ArgumentParser
import FoundationEssentials
import Glibc
import SMPBluetooth

/// `smpctl`: manage microcontrollers over SMP (MCUmgr) from Linux.
@main
struct SMPCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smpctl",
        abstract: "Manage microcontrollers over SMP (MCUmgr): Zephyr, nRF Connect SDK, MCUboot, Mynewt.",
        discussion: """
            Every device command takes -c CONNECTION (or $SMPCTL_CONNECTION), or -p PROFILE for one saved \
            with `smpctl profile add` (docs/configuration.md):
              udp:HOST[:PORT]   udp:[fe80::1%eth0]:1337
              serial:/dev/ttyACM0?baud=115200   serial:usb=2fe3:0100
              ble:AA:BB:CC:DD:EE:FF   ble:name=NAME
            `smpctl ports` lists serial ports (likely SMP devices marked; --probe asks them);
            `smpctl ble scan` lists Bluetooth LE devices (those offering SMP marked).
            The docs/*.md that help names come with an install, in PREFIX/share/doc/smpctl (docs/install.md).
            No hardware? `smpctl demo` runs a session against the built-in virtual device, \
            and `smpctl simulate --udp 127.0.0.1:1337` (or --serial-link PATH) serves one for you.
            Exit codes: 0 ok, 1 internal error, 2 device error, 3 some devices failed, \
            4 refused (by smpctl, from what it read on the device), 64 usage, 65 bad data, \
            69 unreachable, 74 output not writable, 75 timeout, 76 invalid response, \
            130 interrupted; `shell exec` exits with the device command's return code \
            (docs/exit-codes.md).
            """,
        version: SMPCtlVersion.current,
        subcommands: [
            OSCommand.self, ImageCommand.self, UpgradeCommand.self, SUITCommand.self, FSCommand.self, ShellCommand.self, SettingsCommand.self,
            StatCommand.self, LogCommand.self, GroupsCommand.self, EnumCommand.self, ZephyrCommand.self, CrashCommand.self, RunCommand.self,
            PackageCommand.self, PortsCommand.self, BLECommand.self, RawCommand.self, SimulateCommand.self, DemoCommand.self, ProfileCommand.self,
            TargetsCommand.self,
        ]
    )

    /// Entry point: accepts global options before the subcommand too (see ``LeadingOptions``).
    /// A usage error found by the argument parser is reported like every other failure, naming
    /// the real culprit (``UsageDiagnosis``): `error:`/`hint:` lines on standard error, and with
    /// `--json` the JSON error document.
    ///
    /// Output that cannot be written never stops a command (``StandardStream``): when standard
    /// output failed, a command that otherwise succeeded exits 74 once it has finished.
    static func main() async {
        StandardStream.prepare()
        BLEPairingInteractions.frontEnd = TerminalPairingInteraction()
        // `smpctl --version` alone skips the walk of the command tree (a third of its start-up).
        if CommandLine.arguments.dropFirst().elementsEqual(["--version"]) {
            StandardStream.standardOutput.write(SMPCtlVersion.current + "\n")
            exitAfterOutputFailure()
            Glibc.exit(0)
        }
        // Bash splits connection strings at their colons: its script gets a wrapper (BashCompletionGlue).
        if BashCompletionGlue.isRequested(by: Array(CommandLine.arguments.dropFirst())) {
            StandardStream.standardOutput.write(BashCompletionGlue.completeScript)
            exitAfterOutputFailure()
            Glibc.exit(0)
        }
        let written = Array(CommandLine.arguments.dropFirst())
        var arguments = LeadingOptions.reorder(written, root: SMPCtl.self)
        var command: any ParsableCommand
        while true {
            do {
                command = try parseAsRoot(arguments)
                break
            } catch {
                // `--timeout -5`: the parser takes -5 for an option; give it as the value, so that
                // the option's own check says what it accepts.
                if let joined = UsageDiagnosis.joiningNegativeValue(for: error, in: arguments) {
                    arguments = joined
                    continue
                }
                guard exitCode(for: error) == .validationFailure else { exitWriting(error) }
                exitReporting(UsageDiagnosis.failure(for: error, arguments: written), arguments: arguments)
            }
        }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let error as ValidationError {
            // A check made while running, worded like a usage error found by the parser.
            exitReporting(CLIError(.usage, error.message, hint: "see '\(CommandWalk(written).name) --help'"), arguments: arguments)
        } catch {
            exitWriting(error)
        }
        exitAfterOutputFailure()
    }

    /// Reports a usage error as every failure is reported (the JSON error document too when
    /// `--json` is among `arguments`) and exits 64.
    private static func exitReporting(_ failure: CLIError, arguments: [String]) -> Never {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        Output(json: arguments[..<end].contains("--json")).report(failure)
        Glibc.exit(failure.status.rawValue)
    }

    /// Ends with `error` as the argument parser would (help, usage or the message, then its exit
    /// code), but writes through ``StandardStream``: help that cannot be written exits 74, not 0.
    private static func exitWriting(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        let text = helpText(for: error)
        if !text.isEmpty { (code == .success ? StandardStream.standardOutput : .standardError).write(text + "\n") }
        if code == .success { exitAfterOutputFailure() }
        Glibc.exit(code.rawValue)
    }

    /// The help, usage or message the argument parser has for `error`, with one correction: it
    /// writes the usage of a command with more than 12 options, none of them required, as
    /// `smpctl os info <options>`, as if options were needed; `[<options>]` says what is true.
    static func helpText(for error: any Error) -> String {
        fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false).map { line in
            (line.hasPrefix("USAGE: ") || line.hasPrefix("Usage: ")) && line.hasSuffix(" <options>")
                ? line.dropLast("<options>".count) + "[<options>]" : line
        }.joined(separator: "\n")
    }

    /// Exits 74 when standard output failed, saying so on standard error (if that still works).
    private static func exitAfterOutputFailure() {
        guard let failure = StandardStream.standardOutput.failureDescription else { return }
        Output.status("error: the command finished, but its output was lost: cannot write to \(failure)")
        Glibc.exit(ExitStatus.outputError.rawValue)
    }
}
