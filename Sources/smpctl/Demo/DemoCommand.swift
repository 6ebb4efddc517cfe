import ArgumentParser
import JSON
import Logging
import SMP
import SMPFirmware
import SMPKit
import SMPSimulator

/// `smpctl demo`: a real session over UDP against the built-in virtual device, no hardware needed.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start the built-in virtual device and run a real session against it over UDP, ending with a firmware upgrade.",
        discussion: """
            Each step shows the command that does the same against a real device. The last step \
            installs new firmware with `smpctl upgrade`: upload (with a progress bar on a \
            terminal), test, reset, wait for the device, check, confirm.

            Then it leaves sample firmware in ./smpctl-demo (or --samples DIR): app-1.1.0 and \
            app-1.2.0, each as .bin and .hex, with a README.txt, and prints the commands that \
            upgrade `smpctl simulate` with them.
            """)

    @Flag(help: "Print one JSON document with every step's result.")
    var json = false

    @Option(help: ArgumentHelp("Where to leave the sample firmware for trying upgrade by hand.", valueName: "dir"))
    var samples: String = DemoSamples.defaultFolder

    @Flag(help: "Do not write sample firmware.")
    var noSamples = false

    @OptionGroup(title: "Fault injection (to watch retries at work)") var faults: FaultOptions

    @OptionGroup var display: DisplayOptions

    func run() async throws {
        ProgressDisplay.configure(mode: display.progress, quiet: display.quiet)
        let output = Output(json: json)
        do {
            // Written first, so that a folder that cannot be written fails at once.
            let (files, kept) = noSamples ? ([], []) : try DemoSamples.write(into: samples)
            for path in kept { output.note("note: \(path) was left as it was: another file is there, not the one smpctl demo writes") }
            var document = try await session(output: output)
            if noSamples {
                if !json { Output.write(Self.next, to: .standardOutput) }
            } else {
                document.append(("samples", .object([("folder", .string(samples)), ("files", .array(files.map(JSONValue.string))), ("kept", .array(kept.map(JSONValue.string)))])))
                if !json { Output.write("\n" + DemoSamples.instructions(folder: samples), to: .standardOutput) }
            }
            if json { output.emit(.object(document), human: "") }
        } catch {
            let failure = CLIError(error)
            output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
    }

    /// What to try next when no samples are written.
    private static let next = """
        Next: run `smpctl simulate --udp 127.0.0.1:1337` in one terminal and try any command against it
        in another, e.g. `smpctl -c udp:127.0.0.1 os echo hi`. `smpctl --help` lists them all.

        """

    private func session(output: Output) async throws -> [(String, JSONValue)] {
        var quiet = Logger(label: "smp.demo") { _ in SwiftLogNoOpLogHandler() }
        quiet.logLevel = .critical
        let device = VirtualDevice(
            configuration: Self.device,
            faultInjection: faults.injection, logger: quiet)
        let server = UDPSimulatorServer(device: device, host: "127.0.0.1", port: 0, logger: quiet)
        do {
            try await server.start()
        } catch {
            throw CLIError(.transport, "cannot start the virtual device: \(error)")
        }
        do {
            let document = try await exchange(with: await server.endpoint ?? "udp:127.0.0.1", logger: quiet)
            await server.stop()
            return document
        } catch {
            await server.stop()
            throw error
        }
    }

    /// The demo's device: one image with slots of 512 KiB, flash that writes 256 KiB/s (so that
    /// the progress bar has time to show), and a reset that takes the device away for a moment.
    private static var device: VirtualDeviceConfiguration {
        var configuration = VirtualDeviceConfiguration(initialDateTime: SMPDateTime(secondsSince1970: wallClockSeconds()))
        configuration.bootTime = .milliseconds(700)
        var images = SimulatedImageConfiguration(slotSize: 512 * 1024)
        images.flashTiming = SimulatedFlashTiming(eraseBytesPerSecond: 2048 * 1024, writeBytesPerSecond: 256 * 1024)
        configuration.images = images
        return configuration
    }

    private func exchange(with endpoint: String, logger quiet: Logger) async throws -> [(String, JSONValue)] {
        // With faults injected, retry sooner and more often, so the demo shows recovery rather than give up.
        let configuration = faults.injection.isActive
            ? SMPClientConfiguration(timeout: .milliseconds(300), retries: 8) : SMPClientConfiguration()
        let client = try await SMPConnection.open(ConnectionString(parsing: endpoint), configuration: configuration, logger: quiet)
        var document: [(String, JSONValue)] = [("device", .string(endpoint))]
        func step(_ title: String, _ command: String, _ key: String, _ result: (JSONValue, String)) {
            document.append((key, result.0))
            guard !json else { return }
            Output.write("\n# \(title)\n$ smpctl -c \(endpoint) \(command)\n\(result.1)\n", to: .standardOutput)
        }
        if !json {
            Output.write("smpctl demo: the built-in virtual device is listening on \(endpoint); every step below is a real SMP exchange over UDP.\n", to: .standardOutput)
        }

        let echo = try await client.send(OSEcho("hello from smpctl"))
        step("Is anyone there? (a ping)", "os echo \"hello from smpctl\"", "echo", (.string(echo), echo))

        let info = try await client.send(OSApplicationInfo(format: "a"))
        step("What is it running? (like uname -a)", "os info", "info", (.string(info), info))
        step("Which bootloader, in which mode?", "os bootloader", "bootloader", try await OSBootloaderCommand.describe(client))
        step("How large may a request be?", "os params", "params", OSParamsCommand.render(try await client.send(OSParameters())))
        step("Which threads run, and how full are their stacks?", "os taskstat", "tasks",
             OSTaskStatCommand.render(try await client.send(OSTaskStatistics()), zephyr: await OSTaskStatCommand.runsZephyr(client)))
        let time = try await client.send(OSDateTimeRead())
        step("What time does the device think it is?", "os datetime", "datetime", (.string(time.deviceString), time.deviceString))
        let groups = try await GroupsCommand.survey(client)
        step("Which management groups does it offer?", "groups", "groups", (groups.json, groups.text))
        let argv = ["kernel", "uptime"]
        let shell = try await client.executeShell(argv, repeatable: true)
        step("Run a command in its shell", "shell exec -- kernel uptime", "shell",
             (ShellResultRendering.json(argv: argv, ShellResultRendering.plain(shell)),
              shell.plainOutput.hasSuffix("\n") ? String(shell.plainOutput.dropLast()) : shell.plainOutput))

        try await upgrade(client, endpoint: endpoint, document: &document)

        let statistics = await client.statistics
        await client.close()
        document.append(("requests", .int(Int64(statistics.requests))))
        document.append(("retransmissions", .int(Int64(statistics.retransmissions))))
        if !json {
            Output.write("""

                Done: \(statistics.requests) requests, \(statistics.responses) responses, \(statistics.retransmissions) resent.

                """, to: .standardOutput)
        }
        return document
    }

    /// Installs ``DemoFirmware`` with the same engine and display as `smpctl upgrade`.
    private func upgrade(_ client: SMPClient, endpoint: String, document: inout [(String, JSONValue)]) async throws {
        let image = try DemoFirmware.image()
        if !json {
            Output.write("\n# Install new firmware: upload, test, reset, check, confirm\n$ smpctl -c \(endpoint) upgrade \(image.fileName)\n", to: .standardOutput)
        }
        let reporter = UpgradeReporter(output: Output(json: false), file: image.fileName, dryRun: false)
        let quiet = json
        let upgrade = FirmwareUpgrade(client: client, events: { event in if !quiet { reporter.show(event) } })
        let report = try await upgrade.run([image], with: .mcuboot)
        if json {
            document.append(("upgrade", UpgradeRendering.doneJSON(report, file: image.fileName)))
        } else {
            reporter.finish(.finished(report))
        }
    }
}
