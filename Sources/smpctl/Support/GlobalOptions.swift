import ArgumentParser
import FoundationEssentials
import Logging
import SMP
import SMPKit

/// Options every device command takes: the link options, `--json`, `--progress` and `-q`.
struct GlobalOptions: ParsableArguments {
    @OptionGroup var link: LinkOptions

    @OptionGroup var format: JSONOutputOption

    @OptionGroup var display: DisplayOptions

    @OptionGroup(title: "Many devices") var fleet: FleetOptions

    /// Whether `--json` was given.
    var json: Bool { format.json }

    /// The output writer for this invocation.
    var output: Output { format.output }

    /// Works out the invocation (``invocation()``), then connects, runs `body`, closes, and reports
    /// any failure; on each device at once when the invocation names many (``Invocation/withClient(_:)``).
    func withClient(_ body: @Sendable (SMPClient, Output) async throws -> Void) async throws {
        try await invocation().withClient(body)
    }

    /// Works out the invocation and connects to one device, like ``withClient(_:)``, for a command
    /// that cannot serve many at once (`reason` says why, and what to use instead).
    func withOneClient(because reason: String, _ body: @Sendable (SMPClient, Output) async throws -> Void) async throws {
        try await invocation().withOneClient(because: reason, body)
    }
}

/// How to reach the device and how patiently: `-c`, `-p`, `--timeout`, `--retries`; `-v` and `--log-file`.
struct LinkOptions: ParsableArguments {
    @Option(
        name: [.customShort("c", allowingJoined: true), .customLong("connection")],
        help: ArgumentHelp(
            "How to reach the device, e.g. udp:192.0.2.1, serial:/dev/ttyACM0, ble:name=Zephyr (default: $SMPCTL_CONNECTION).",
            valueName: "connection-string"),
        completion: .connectionString)
    var connection: String?

    @Option(
        name: [.customShort("p"), .customLong("profile")],
        help: ArgumentHelp(
            "A saved connection and its settings (smpctl profile list; default: $SMPCTL_PROFILE; docs/configuration.md).",
            valueName: "name"),
        completion: .profileName)
    var profile: String?

    @Option(help: ArgumentHelp(
        "Seconds to wait for each response, greater than 0 and at most 3600 (default: 3); a request is sent at most --retries + 1 times.",
        valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("How often a lost response to a harmless request is retried, 0 to 10 (default: 2).", valueName: "count"))
    var retries: Int?

    @Flag(name: .short, help: "More detail on standard error: -v each request and transport event, -vv also the payloads as JSON, -vvv every frame in hex.")
    var verbose: Int

    @Option(help: ArgumentHelp("Append the log records to FILE as JSON lines (at least what -v shows).", valueName: "file"))
    var logFile: String?

    func validate() throws {
        try NumericRange.timeout.check(timeout)
        try NumericRange.retries.check(retries)
        if let logFile {
            do { try LogFile.check(logFile) } catch { throw ValidationError(error.description) }
        }
    }

    /// Opens the `--log-file`, when there is one, as the run's (``LogFile/current``); done once
    /// the invocation is worked out (``GlobalOptions/invocation()``).
    func openLogFile() throws(CLIError) {
        guard let logFile else { return }
        do { try LogFile.open(logFile) } catch { throw CLIError(.usage, error.description) }
    }

    /// A logger on standard error as `-v` says, and into the `--log-file` when there is one.
    func makeLogger(label: String = "smpctl") -> Logger {
        let verbosity = LogVerbosity(count: verbose)
        let file = logFile.flatMap { _ in LogFile.current }
        return Logger(label: label) { label in
            let terminal = CLILogHandler(label: label, verbosity: verbosity)
            guard let file else { return terminal }
            return MultiplexLogHandler([terminal, JSONLinesLogHandler(label: label, verbosity: verbosity.forFile, file: file)])
        }
    }

    /// A command's failure as the CLI reports it, with what the link and the server tell about it:
    /// the transport's diagnosis of a timeout, MCUboot serial recovery's own words for a refusal.
    static func failure(of error: any Error, client: SMPClient) async -> CLIError {
        var failure = CLIError(error)
        if failure.status == .timeout, let link = client.transport as? any SMPLinkDiagnosing, let diagnosis = await link.diagnosis() {
            failure.hint = diagnosis
        }
        if let (message, hint) = await recoveryRefusal(of: error, client: client) {
            failure.message = message
            failure.hint = hint
        }
        return failure
    }

    /// The message and hint for a "not supported" answer from MCUboot's serial recovery, which
    /// name MCUboot and its own Kconfig option (the application's options would mislead); nil for
    /// any other error or server.
    private static func recoveryRefusal(of error: any Error, client: SMPClient) async -> (message: String, hint: String)? {
        guard let error = error as? SMPError, SMPClient.isNotSupported(error), case .device(_, let request) = error,
              let recognition = try? await client.recogniseServer(), recognition.isSerialRecovery
        else { return nil }
        return ("\(request): MCUboot's serial recovery answered MGMT_ERR_ENOTSUP (8): it does not have this command",
                MCUbootRecoveryOptions.hint(for: request))
    }
}
