import ArgumentParser
import Logging
import SMP
import SMPSimulator

/// `smpctl simulate --udp HOST:PORT`: serve a virtual SMP device.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Serve a virtual SMP device that answers like a Zephyr device, for trying smpctl without hardware.",
        discussion: """
            Port 0 picks a free port; the address is printed once the device listens. Stop with Ctrl-C.
            Fault injection takes fractions of responses from 0 to 1, e.g. --drop 0.1 --corrupt 0.05.
            Example: smpctl simulate --udp 127.0.0.1:1337 & smpctl -c udp:127.0.0.1 os info
            """)

    @Option(help: ArgumentHelp("Address and port to serve on: 127.0.0.1:1337, [::1]:0, 0.0.0.0:1337.", valueName: "host:port"))
    var udp: String = "127.0.0.1:1337"

    @Option(help: "SMP buffer size the device reports and enforces (bytes).")
    var bufSize: Int = 2048

    @Option(help: "SMP buffer count the device reports.")
    var bufCount: Int = 4

    @Option(help: ArgumentHelp("zephyr (SMP v2, indefinite-length maps) or legacy (SMP v1, rc in every answer).", valueName: "flavour"))
    var flavour: SMPServerFlavour = .zephyr

    @Flag(help: "Behave like a Mynewt device: legacy SMP, memory pool statistics, console echo control.")
    var mynewt = false

    @Option(help: ArgumentHelp("MCUboot mode reported by bootloader info: a name such as swap-using-move, or a number.", valueName: "mode"))
    var bootloaderMode: String = "swap-using-move"

    @Flag(help: "Report MCUboot's downgrade prevention (no-downgrade).")
    var noDowngrade = false

    @Option(help: ArgumentHelp("Initial clock: now, unset (answers RTC_NOT_SET until set) or an ISO 8601 time.", valueName: "time"))
    var rtc: String = "now"

    @Flag(help: "Refuse resets unless --force is given (like an application reset hook).")
    var refuseReset = false

    @OptionGroup(title: "Fault injection") var faults: FaultOptions

    @Flag(help: "Print the listening address as JSON.")
    var json = false

    @Flag(name: .short, help: "Log every request on standard error (-vv: every frame).")
    var verbose: Int

    func validate() throws {
        if !(64...65_543).contains(bufSize) { throw ValidationError("--buf-size must be from 64 to 65543") }
        if !(1...64).contains(bufCount) { throw ValidationError("--buf-count must be from 1 to 64") }
        _ = try BindAddress(parsing: udp)
        _ = try mode()
        _ = try initialTime()
    }

    func run() async throws {
        let address = try BindAddress(parsing: udp)
        var logger = Logger(label: "smp.simulator") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = verbose >= 2 ? .trace : verbose == 1 ? .debug : .notice
        var configuration = mynewt ? VirtualDeviceConfiguration.mynewtLike : VirtualDeviceConfiguration(flavour: flavour)
        configuration.bufferSize = bufSize
        configuration.bufferCount = bufCount
        configuration.bootloaderMode = try mode()
        configuration.noDowngrade = noDowngrade
        configuration.initialDateTime = try initialTime()
        configuration.resetHook = refuseReset ? .refuseUnlessForced(.returnCode(.busy)) : .none
        let device = VirtualDevice(configuration: configuration, faultInjection: faults.injection, logger: logger)
        let server = UDPSimulatorServer(device: device, host: address.host, port: address.port, logger: logger)
        let output = Output(json: json)
        do {
            try await server.start()
        } catch {
            let failure = CLIError(.transport, error.description, hint: "choose another port, or 0 for a free one")
            output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
        let endpoint = await server.endpoint ?? "udp:\(address.host):\(address.port)"
        let port = await server.port ?? address.port
        output.emit(
            .object([("listening", .string(endpoint)), ("port", .int(Int64(port)))]),
            human: "virtual SMP device listening on \(endpoint) (\(mynewt ? "mynewt-like" : flavour.description), buf_size \(bufSize), buf_count \(bufCount)"
                + (faults.injection.isActive ? ", faults on" : "") + ")\ntry: smpctl -c \(endpoint) os info")
        _ = try? await Interruption.cancellingOnSignals { try await server.run() }
        await server.stop()
        if verbose > 0 { Output.status("stopped after \(await device.statistics)") }
    }

    private func mode() throws -> MCUbootMode {
        if let number = Int64(bootloaderMode) { return MCUbootMode(rawValue: number) }
        guard let mode = (-1...9).map({ MCUbootMode(rawValue: $0) }).first(where: { $0.name == bootloaderMode }) else {
            throw ValidationError("unknown --bootloader-mode \(bootloaderMode); use a number or one of "
                + (-1...9).map { MCUbootMode(rawValue: $0).name }.joined(separator: ", "))
        }
        return mode
    }

    private func initialTime() throws -> SMPDateTime? {
        switch rtc.lowercased() {
        case "unset": return nil
        case "now": return SMPDateTime(secondsSince1970: wallClockSeconds())
        default:
            guard let time = SMPDateTime(iso8601: rtc) else { throw ValidationError("--rtc \(rtc) is not now, unset or an ISO 8601 time") }
            return time.inUTC
        }
    }
}

extension SMPServerFlavour: ExpressibleByArgument {}

/// The fault-injection options shared by `simulate` and `demo`.
struct FaultOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Fraction of responses to drop.", valueName: "fraction"))
    var drop: Double = 0
    @Option(help: ArgumentHelp("Fraction of responses to send twice.", valueName: "fraction"))
    var duplicate: Double = 0
    @Option(help: ArgumentHelp("Fraction of responses to delay by --delay-ms.", valueName: "fraction"))
    var delay: Double = 0
    @Option(help: ArgumentHelp("How long a delayed response waits (milliseconds).", valueName: "ms"))
    var delayMs: Int = 100
    @Option(help: ArgumentHelp("Fraction of responses to hold back and send after the next one.", valueName: "fraction"))
    var reorder: Double = 0
    @Option(help: ArgumentHelp("Fraction of responses to corrupt.", valueName: "fraction"))
    var corrupt: Double = 0
    @Option(help: ArgumentHelp("Fraction of requests answered 'busy' (rc 10) without being processed.", valueName: "fraction"))
    var busy: Double = 0
    @Option(help: "Seed of the fault generator, for repeatable runs.")
    var seed: UInt64 = 0x5EED

    func validate() throws {
        for (name, value) in [("drop", drop), ("duplicate", duplicate), ("delay", delay), ("reorder", reorder), ("corrupt", corrupt), ("busy", busy)]
        where !(0...1).contains(value) {
            throw ValidationError("--\(name) must be a fraction from 0 to 1, not \(value)")
        }
        if !(0...60_000).contains(delayMs) { throw ValidationError("--delay-ms must be from 0 to 60000") }
    }

    var injection: FaultInjection {
        FaultInjection(
            drop: drop, duplicate: duplicate, delay: delay, delayDuration: .milliseconds(delayMs), reorder: reorder,
            corrupt: corrupt, busy: busy, seed: seed)
    }
}

/// A local address to serve on: `HOST:PORT`, `[IPv6]:PORT`, or `HOST` (port 1337). Port 0 is allowed.
struct BindAddress {
    var host: String
    var port: Int

    init(parsing text: String) throws {
        var host = Substring(text)
        var port: Substring = "1337"
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw ValidationError("--udp \(text): expected [IPv6]:PORT") }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if rest.hasPrefix(":") { port = rest.dropFirst() } else if !rest.isEmpty {
                throw ValidationError("--udp \(text): expected [IPv6]:PORT")
            }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { throw ValidationError("--udp \(text): no address given") }
        guard port.allSatisfy(\.isASCII), let number = Int(port), (0...65_535).contains(number), port.first != "+" else {
            throw ValidationError("--udp \(text): the port must be a number from 0 to 65535")
        }
        self.host = String(host)
        self.port = number
    }
}
