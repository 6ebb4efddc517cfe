#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import FoundationEssentials
import SMP
import SMPFleet
import SMPKit
import Synchronization

/// One command run on many devices at once (docs/many-devices.md): each device gets its own
/// connection, and its own output, kept apart (``DeviceOutputCapture``) and printed under its
/// name once all are done; the run shows live (``FleetDisplay``), ends with a summary table and the
/// `--report` files, and exits 0 only when every device succeeded (3 when some failed).
struct FleetCommandRun: Sendable {
    /// The invocation's options.
    let global: GlobalOptions
    /// The devices, in the order given.
    let targets: [DeviceTarget]

    /// The device whose command runs in the current task, within a many-device run.
    @TaskLocal static var currentDevice: DeviceTarget?

    /// The subcommand as typed, e.g. `os info`.
    var command: String {
        CommandWalk(LeadingOptions.reorder(Array(CommandLine.arguments.dropFirst()), root: SMPCtl.self)).path.joined(separator: " ")
    }

    /// Runs a command's one-device code on every device.
    func run(_ body: @Sendable (SMPClient, Output) async throws -> Void) async throws {
        let json = global.json
        let phase = command
        try await withoutActuallyEscaping(body) { body in
            try await run(file: nil) { client, _, recorder in
                recorder.phase(phase)
                try await body(client, Output(json: json))
                return .succeeded
            }
        }
    }

    /// Runs `operation` on every device, shows the run, prints each device's output, the summary
    /// and the reports, and ends with the run's exit status (an `ExitCode` unless all succeeded).
    /// `file` is the firmware of an upgrade, for the report.
    func run(
        file: String?, operation: @escaping @Sendable (SMPClient, DeviceTarget, DeviceRecorder) async throws -> DeviceOutcome
    ) async throws {
        try checkReportFolders()
        let json = global.json
        let captures = Mutex<[DeviceTarget: DeviceOutputCapture]>([:])
        let display = FleetDisplay(targets: targets, style: FleetDisplay.style(json: json), command: command) { target in
            captures.withLock { $0[target] }?.documents ?? []
        }
        // Each device's own progress bars and spinners would garble the view: the display shows them.
        ProgressDisplay.configure(mode: ProgressMode.none, quiet: ProgressDisplay.isQuiet)
        display.start()
        let run = FleetRun(targets: targets, jobs: global.fleet.jobs ?? Self.defaultJobs(for: targets))
        let logger = global.link.makeLogger(label: "smp")
        let report = try await Interruption.cancellingOnSignals {
            await run.run(
                configuration: SMPClientConfiguration(), logger: logger,
                operation: { client, target, recorder in
                    let capture = DeviceOutputCapture()
                    captures.withLock { $0[target] = capture }
                    do {
                        return try await StandardStream.$capture.withValue(capture) {
                            try await Self.$currentDevice.withValue(target) { try await operation(client, target, recorder) }
                        }
                    } catch let exit as ExitCode {
                        throw capture.reportedFailure(status: exit.rawValue)
                    } catch {
                        throw await LinkOptions.failure(of: error, client: client)
                    }
                },
                failure: { CLIError($0).deviceFailure },
                events: display.show)
        }
        display.finish()
        let outputs = captures.withLock { $0 }
        let summary = FleetSummary(report: report, command: command, file: file)
        if json {
            Output.write(report.json(command: command, file: file).adding(event: "report").documentLine(), to: .standardOutput)
        } else {
            for record in report.devices { outputs[record.target].map { $0.printTagged(record.target.name) } }
            summary.print(rerun: ShellQuoting.commandLine(["smpctl"] + CommandLine.arguments.dropFirst()))
        }
        try writeReports(report, file: file)
        if let status = summary.exitStatus { throw ExitCode(status) }
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

    /// Refuses a `--report` into a folder that does not exist or cannot be written, before any
    /// device is touched.
    private func checkReportFolders() throws {
        for path in global.fleet.report {
            let folder = path.contains("/") ? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) : "."
            if access(folder.isEmpty ? "/" : folder, W_OK) != 0 {
                let failure = CLIError(
                    .usage, "--report \(path): cannot write into \(folder.isEmpty ? "/" : folder): \(String(cString: strerror(errno)))",
                    hint: "give a file in a folder that exists and that you may write to; nothing was sent to any device")
                global.output.report(failure)
                throw ExitCode(failure.status.rawValue)
            }
        }
    }

    /// Writes the `--report` files: CSV for a name ending in `.csv`, JSON otherwise.
    private func writeReports(_ report: FleetReport, file: String?) throws {
        for path in global.fleet.report {
            let text = path.lowercased().hasSuffix(".csv") ? report.csv : report.json(command: command, file: file).documentLine()
            do {
                try Data(text.utf8).write(to: URL(filePath: path))
            } catch {
                let failure = CLIError(.outputError, "cannot write the report \(path): \(error.localizedDescription)", hint: "the devices were served; the report is also on standard output with --json")
                global.output.report(failure)
                throw ExitCode(failure.status.rawValue)
            }
        }
    }
}

extension DeviceOutputCapture {
    /// The JSON documents the device's command printed (one per line).
    var documents: [JSONValue] {
        output.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
    }

    /// The failure a command reported itself before exiting with `status` (partial results).
    func reportedFailure(status: Int32) -> CLIError {
        let lines = error.split(separator: "\n").map(String.init)
        let message = lines.last { $0.hasPrefix("error: ") }.map { String($0.dropFirst(7)) } ?? "exited with status \(status)"
        let hint = lines.last { $0.hasPrefix("hint: ") }.map { String($0.dropFirst(6)) }
        return CLIError(ExitStatus(rawValue: status) ?? .internalError, message, hint: hint)
    }

    /// Prints what the device's command printed, each line after the device's name; its errors
    /// are left out (the summary names them).
    func printTagged(_ name: String) {
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).dropLast(output.hasSuffix("\n") ? 1 : 0) where !output.isEmpty {
            Output.write("\(name): \(line)\n", to: .standardOutput)
        }
        for line in error.split(separator: "\n") where !line.hasPrefix("error: ") && !line.hasPrefix("hint: ") && !line.hasPrefix("      ") {
            Output.write("\(name): \(line)\n", to: .standardError)
        }
    }
}

extension CLIError {
    /// The failure as a many-device report records it.
    var deviceFailure: DeviceFailure {
        DeviceFailure(code: status.rawValue, name: status.jsonName, message: message, hint: hint ?? status.defaultHint)
    }
}

extension JSONValue {
    /// The object with an `event` member in front.
    func adding(event: String) -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object([("event", .string(event))] + members)
    }
}
