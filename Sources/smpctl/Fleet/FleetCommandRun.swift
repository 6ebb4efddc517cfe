import ArgumentParser
import FoundationEssentials
import JSON
import Logging
import SMP
import SMPFleet
import SMPKit
import Synchronization

/// One command run on many devices at once (docs/many-devices.md): each device gets its own
/// connection, and its own ``Output``, whose results are kept as typed values (``DeviceOutput``)
/// and printed under its name once all are done; the run shows live (``FleetDisplay``), ends with a summary table and the
/// `--report` files, and exits 0 only when every device succeeded (3 when some failed).
struct FleetCommandRun: Sendable {
    /// The invocation's options.
    let global: GlobalOptions
    /// The devices, in the order given.
    let targets: [DeviceTarget]
    /// The targets that stand for a selector that matched nothing, with why.
    var unmatched: [DeviceTarget: CLIError] = [:]

    /// The subcommand as typed, e.g. `os info`.
    var command: String {
        CommandWalk(LeadingOptions.reorder(Array(CommandLine.arguments.dropFirst()), root: SMPCtl.self)).path.joined(separator: " ")
    }

    /// Runs a command's one-device code on every device, each with its own ``Output``.
    func run(_ body: @Sendable (SMPClient, Output) async throws -> Void) async throws {
        let phase = command
        try await withoutActuallyEscaping(body) { body in
            try await run(file: nil) { client, _, output, recorder in
                recorder.phase(phase)
                try await body(client, output)
                return .succeeded
            }
        }
    }

    /// Runs `operation` on every device through an SMP client opened for it (see
    /// the variant that takes an ``Operation``).
    func run(
        file: String?, operation: @escaping @Sendable (SMPClient, DeviceTarget, Output, DeviceRecorder) async throws -> DeviceOutcome
    ) async throws {
        try await run(file: file, operation: .smp(operation))
    }

    /// What a many-device run does on each device.
    enum Operation: Sendable {
        /// Works through an SMP client the run opens for the device (and closes after).
        case smp(@Sendable (SMPClient, DeviceTarget, Output, DeviceRecorder) async throws -> DeviceOutcome)
        /// Reaches the device itself (Nordic DFU), with the logger that names the device.
        case own(@Sendable (DeviceTarget, Output, DeviceRecorder, Logger) async throws -> DeviceOutcome)
    }

    /// Runs `operation` on every device, shows the run, prints each device's output, the summary
    /// and the reports, and ends with the run's exit status (an `ExitCode` unless all succeeded).
    /// `operation` writes through the device's ``Output``. `file` is the firmware of an upgrade,
    /// for the report.
    func run(file: String?, operation: Operation) async throws {
        let reports: FleetReportFiles
        do {
            reports = try FleetReportFiles(
                paths: global.fleet.report,
                inputs: FleetReportFiles.namedPaths(in: Array(CommandLine.arguments.dropFirst())) + [ConfigStore.standard()?.path].compactMap { $0 })
        } catch {
            global.output.report(error)
            throw ExitCode(error.status.rawValue)
        }
        let json = global.json
        let outputs = Mutex<[DeviceTarget: DeviceOutput]>([:])
        let display = FleetDisplay(targets: targets, style: FleetDisplay.style(json: json), command: command) { target in
            outputs.withLock { $0[target] }?.documents ?? []
        }
        // Each device's own progress bars and spinners would garble the view: the display shows them.
        ProgressDisplay.configure(mode: ProgressMode.none, quiet: ProgressDisplay.isQuiet)
        display.start()
        let run = FleetRun(
            targets: targets, jobs: global.fleet.jobs ?? Self.defaultJobs(for: targets), unmatched: unmatched.mapValues(\.deviceFailure))
        let logger = global.link.makeLogger(label: "smp")
        let report = try await Interruption.cancellingOnSignals {
            await run.run(
                logger: logger,
                operation: { target, recorder, logger in
                    let device = DeviceOutput(target: target)
                    outputs.withLock { $0[target] = device }
                    let output = Output(json: json, device: device)
                    do {
                        return try await Self.reaching(target, recorder: recorder) { target in
                            switch operation {
                            case .smp(let body):
                                return try await FleetRun.withClient(target, configuration: SMPClientConfiguration(), logger: logger, recorder: recorder) { client in
                                    do {
                                        return try await body(client, target, output, recorder)
                                    } catch let exit as ExitCode {
                                        throw exit
                                    } catch {
                                        throw await LinkOptions.failure(of: error, client: client)
                                    }
                                }
                            case .own(let body):
                                return try await body(target, output, recorder, logger)
                            }
                        }
                    } catch let exit as ExitCode {
                        throw device.failure(exitingWith: exit).addressed(to: target)
                    } catch let error where !(error is CancellationError) {
                        throw CLIError(error).addressed(to: target)
                    }
                },
                failure: { CLIError($0).deviceFailure },
                events: display.show)
        }
        // Every place is released by now; the labgrid helpers end (and would release any left).
        await LabgridCoordinator.closeAll()
        display.finish()
        let devices = outputs.withLock { $0 }
        let documents = { (target: DeviceTarget) in devices[target]?.documents ?? [] }
        let summary = FleetSummary(report: report, command: command, file: file)
        if json {
            Output.write(report.json(command: command, file: file, output: documents).adding(event: "report").documentLine(), to: .standardOutput)
        } else {
            for record in report.devices { devices[record.target]?.printTagged() }
            summary.print(rerun: ShellQuoting.commandLine(["smpctl"] + CommandLine.arguments.dropFirst()))
        }
        do {
            try reports.write { path in
                path.lowercased().hasSuffix(".csv") ? report.csv : report.json(command: command, file: file, output: documents).documentLine()
            }
        } catch {
            global.output.report(error)
            throw ExitCode(error.status.rawValue)
        }
        if let status = summary.exitStatus { throw ExitCode(status) }
    }

    /// Runs `body` with `target` as it is reached: a labgrid place acquired first (phase `acquire`)
    /// and released after, its connection then the place's serial port; any other target as it is.
    /// The next phase (`connect`) ends `acquire`.
    private static func reaching(
        _ target: DeviceTarget, recorder: DeviceRecorder, _ body: (DeviceTarget) async throws -> DeviceOutcome
    ) async throws -> DeviceOutcome {
        guard case .labgridPlace = target.connection.target else { return try await body(target) }
        recorder.phase("acquire")
        return try await LabgridCoordinator.withDevice(of: target.connection) { connection in
            var reached = target
            reached.connection = connection
            return try await body(reached)
        }
    }

    /// The default `--jobs`: the smallest of the transports' (UDP 64, serial 32, BLE 2), and no
    /// more than there are devices.
    static func defaultJobs(for targets: [DeviceTarget]) -> Int {
        let limits = Set(targets.map(\.connection.transport)).map { transport in
            switch transport {
            case .ble: return 2
            case .serial: return 32
            case .udp: return 64
            }
        }
        return max(1, min(targets.count, limits.min() ?? 64))
    }
}

extension JSONValue {
    /// The object with an `event` member in front.
    func adding(event: String) -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object([("event", .string(event))] + members)
    }
}
