import ArgumentParser
import JSON
import Logging
import SMPFleet
import SMPKit
import SMPSerial
import SMPSerialDiscovery

/// `smpctl ports`: the serial ports attached, which are probably SMP devices, a probe of each,
/// and waiting for one to appear.
struct PortsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ports",
        abstract: "List serial ports and the likely SMP devices among them, probe them, or wait for one.",
        discussion: """
            Lists the likely SMP devices: USB serial ports of Zephyr (2fe3), Nordic \
            (1915) and SEGGER J-Link (1366). --all lists every serial port (USB-UART \
            bridges, other debug probes, built-in UARTs); they may speak SMP too, and \
            --probe asks each listed port.
            SELECTOR is what follows serial: in a connection string: /dev/ttyACM0, \
            a /dev/serial/by-id/... link, usb=VID:PID, usb=VID:PID:SERIAL, \
            serial-number=SERIAL or auto. Pseudo-terminals (/dev/pts/N, the links \
            `smpctl simulate --serial-link` and socat make) are listed only when named: \
            smpctl ports /dev/pts/3 --probe (smpctl targets -c 'serial:/dev/pts/*' \
            lists them all).
            Examples: smpctl ports --all --probe
                      smpctl ports --wait usb=2fe3:0100 --wait-timeout 10
            Exit codes: 64 several ports match, 69 no port matches, \
            75 --wait timed out (docs/serial.md).
            """)

    @Argument(help: ArgumentHelp("Only the ports this names; with --wait, the port to wait for (default: auto).", valueName: "selector"))
    var selector: String?

    @Flag(help: "List every serial port, not only the likely SMP devices.")
    var all = false

    @Flag(help: "Send an SMP echo to each listed port, all at once, and show which answer.")
    var probe = false

    @Option(help: ArgumentHelp("Seconds each probe waits for the answer, greater than 0 and at most 60.", valueName: "seconds"))
    var probeTimeout: Double = 0.5

    @Flag(help: "Wait until a port matching SELECTOR is attached, then print it.")
    var wait = false

    @Option(help: ArgumentHelp(
        "Seconds --wait waits in all before giving up with exit code 75, greater than 0 and at most 86400.", valueName: "seconds"))
    var waitTimeout: Double = 30

    @Option(help: ArgumentHelp(
        "Seconds between re-listings while --wait waits; a udev event ends the wait at once when udevd runs.",
        valueName: "seconds"))
    var pollInterval: Double = 0.2

    @OptionGroup var format: JSONOutputOption

    @Flag(name: .short, help: "Say on standard error how --wait found the port, and why probes failed.")
    var verbose: Int

    func validate() throws {
        try NumericRange.waitTimeout.check(waitTimeout)
        try NumericRange.probeTimeout.check(probeTimeout)
        try NumericRange.pollInterval.check(pollInterval)
    }

    func run() async throws {
        let output = format.output
        do {
            let selector = try selector.map(SerialPortSelector.parse)
            if wait {
                try await waitForPort(selector ?? .auto, output: output)
            } else {
                try await list(selector, output: output)
            }
        } catch {
            let failure: CLIError = switch error {
            case let error as SerialPortDiscoveryError: CLIError(discovery: error)
            case is CancellationError: CLIError(.interrupted, "interrupted while waiting for the port")
            default: CLIError(error)
            }
            output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
    }

    /// Lists the likely SMP devices, every port with `--all`, or the ports a selector names.
    private func list(_ selector: SerialPortSelector?, output: Output) async throws {
        let discovered = try SerialPortDiscovery.ports()
        // A pseudo-terminal is not listed by discovery: named by its path (or a path pattern), it is.
        let attached = selector.map { SerialPathGlob.adding(to: discovered, for: $0) } ?? discovered
        let shown: [SerialPortInfo]
        if let selector {
            shown = attached.filter(selector.matches)
            if shown.isEmpty { throw SerialPortDiscoveryError.noMatch(selector, candidates: attached) }
        } else {
            shown = all ? attached : attached.filter(\.isLikelySMP)
        }
        var report = PortReport(ports: shown, attached: attached, probes: try await probes(of: shown))
        report.hidden = selector == nil ? attached.count - shown.count : 0
        report.pseudoTerminalNote = selector == nil
        output.emit(report.json(), human: report.text)
    }

    /// Waits for the port, then prints it like a listing of one.
    private func waitForPort(_ selector: SerialPortSelector, output: Output) async throws {
        let timeout = Duration.seconds(waitTimeout)
        let pollInterval = Duration.seconds(pollInterval)
        let arrival = try await Interruption.cancellingOnSignals {
            try await SerialPortDiscovery.waitForArrival(matching: selector, timeout: timeout, pollInterval: pollInterval)
        }
        let how = switch arrival.detection {
        case .alreadyPresent: "it was attached already"
        case .udevMonitor: "announced by the udev monitor"
        case .polling: "found by polling (no udev event arrived)"
        }
        if verbose > 0 { Output.status("\(arrival.port.path): \(how), after \(arrival.elapsed.millisecondsText)") }
        let attached = (try? SerialPortDiscovery.ports()) ?? [arrival.port]
        let report = PortReport(ports: [arrival.port], attached: attached, probes: try await probes(of: [arrival.port]))
        let wait: JSONValue = .object([
            ("foundBy", .string(arrival.detection.rawValue)), ("elapsedMilliseconds", .milliseconds(arrival.elapsed)),
        ])
        output.emit(report.json(extra: [("wait", wait)]), human: report.text)
    }

    /// The probe results with `--probe`, else nil.
    private func probes(of ports: [SerialPortInfo]) async throws -> [String: SerialPortProbe]? {
        guard probe else { return nil }
        let logger = makeLogger()
        let results = await SerialPortProbe.probe(ports, timeout: .seconds(probeTimeout), logger: logger)
        if verbose > 0 {
            for (path, result) in results.sorted(by: { $0.key < $1.key }) {
                if let detail = result.detail { Output.status("\(path): probe \(result.name): \(detail)") }
            }
        }
        return results
    }

    private func makeLogger() -> Logger {
        var logger = Logger(label: "smp") { StandardStream.logHandler(label: $0) }
        logger.logLevel = verbose >= 3 ? .trace : verbose == 2 ? .debug : .warning
        return logger
    }
}
