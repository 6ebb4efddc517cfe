import ArgumentParser
import Logging
import SMP
import SMPSerial
import SMPSimulator

/// `smpctl simulate --udp HOST:PORT` and/or `--serial-link PATH`: serve a virtual SMP device.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Serve a virtual SMP device that answers like a Zephyr device, for trying smpctl without hardware.",
        discussion: """
            The device is served over UDP (by default on 127.0.0.1:1337), on a serial link (a pseudo-terminal \
            reached through --serial-link PATH), or both at once. Port 0 picks a free port; the addresses are \
            printed once the device listens. Stop with Ctrl-C.
            Fault injection takes fractions of responses from 0 to 1, e.g. --drop 0.1 --corrupt 0.05.

            Example: smpctl simulate --udp 127.0.0.1:1337 & smpctl -c udp:127.0.0.1 os info

            Serial: smpctl simulate --serial-link /tmp/ttySMP --baud 115200 --log-lines 2 &
                    smpctl -c serial:/tmp/ttySMP os info
            Like a stock Zephyr device (2 receive line buffers): add --line-buffers 2; Zephyr's shell \
            transport: --framing shell; its raw UART transport: --framing raw.

            MCUboot serial recovery: --serial-recovery gives the device MCUboot's recovery, entered by \
            'os reset --boot-mode bootloader'; --bootloader-recovery starts in it. There only image list and \
            upload (to the primary slot, in whole --recovery-write-alignment units), console echo control, \
            reset and MCUmgr parameters answer (buf_size 1024, buf_count 1), plus what the --recovery-* options \
            add; one request at a time. A reset from recovery boots the application: with --bootloader-mode \
            ram-load the highest valid version of either slot, otherwise the primary slot. Like the mps2 \
            serial_recovery fixture: --serial-link PATH --bootloader-mode ram-load --no-bootloader-info \
            --serial-recovery --slot-size 524288.
            """)

    @OptionGroup(title: "UDP") var udp: UDPServeOptions

    @OptionGroup(title: "Serial link (pseudo-terminal)") var serial: SerialServeOptions

    @Option(help: ArgumentHelp(
        "SMP buffer size the device reports and enforces (bytes); default 2048, or 384 on a serial link alone (Zephyr's defaults).",
        valueName: "bytes"))
    var bufSize: Int?

    @Option(help: "SMP buffer count the device reports.")
    var bufCount: Int = 4

    @Option(help: ArgumentHelp("zephyr (SMP v2, indefinite-length maps) or legacy (SMP v1, rc in every answer).", valueName: "flavour"))
    var flavour: SMPServerFlavour = .zephyr

    @Flag(help: "Behave like a Mynewt device: legacy SMP, memory pool statistics, console echo control, log, crash and run groups.")
    var mynewt = false

    @Option(help: ArgumentHelp(
        "MCUboot mode reported by bootloader info and followed by the image group: a name such as swap-using-move, overwrite-only, direct-xip, direct-xip-with-revert, or a number.",
        valueName: "mode"))
    var bootloaderMode: String = "swap-using-move"

    @Flag(help: "Report MCUboot's downgrade prevention (no-downgrade).")
    var noDowngrade = false

    @Option(help: ArgumentHelp("Initial clock: now, unset (answers RTC_NOT_SET until set) or an ISO 8601 time.", valueName: "time"))
    var rtc: String = "now"

    @Flag(help: "Refuse resets unless --force is given (like an application reset hook).")
    var refuseReset = false

    @Option(help: ArgumentHelp("Firmware images with two slots each (image management group); 0 turns the group off.", valueName: "count"))
    var images: Int = 1

    @Option(help: ArgumentHelp("Size of each image slot in bytes.", valueName: "bytes"))
    var slotSize: Int = 256 * 1024

    @Flag(help: "Check an image's SHA-256 before booting it, as MCUboot does: a marked image whose hash TLV differs from its content is erased, not booted.")
    var checkImageHash = false

    @OptionGroup(title: "Reset timing and flash") var timing: DeviceTimingOptions

    @OptionGroup(title: "Fault injection") var faults: FaultOptions

    @OptionGroup(title: "Statistics and enumeration") var diagnostics: DiagnosticsServeOptions
    @OptionGroup(title: "Shell, settings, Zephyr basic") var shellSettings: SimulateShellSettingsOptions
    @OptionGroup(title: "SUIT") var suit: SUITSimulateOptions
    @OptionGroup(title: "File system") var fileSystem: FSSimulateOptions
    @OptionGroup(title: "MCUboot serial recovery") var recovery: RecoverySimulateOptions

    @Flag(help: "Print the listening addresses as JSON.")
    var json = false

    @Flag(name: .short, help: "Log every request on standard error (-vv: every frame).")
    var verbose: Int

    func validate() throws {
        if !(0...3).contains(images) { throw ValidationError("--images must be from 0 to 3") }
        if !(4096...(64 << 20)).contains(slotSize) { throw ValidationError("--slot-size must be from 4096 to 67108864 bytes") }
        if let bufSize, !(64...65_543).contains(bufSize) { throw ValidationError("--buf-size must be from 64 to 65543") }
        if !(1...64).contains(bufCount) { throw ValidationError("--buf-count must be from 1 to 64") }
        if recovery.enabled && images == 0 {
            throw ValidationError("MCUboot serial recovery writes image slots: leave out --images 0")
        }
        _ = try udpAddress()
        _ = try mode()
        _ = try initialTime()
    }

    /// Where to serve UDP: `--udp`, or the default address when no serial link is asked for.
    private func udpAddress() throws -> BindAddress? {
        if let address = udp.address { return try BindAddress(parsing: address) }
        return serial.link == nil ? try BindAddress(parsing: UDPServeOptions.defaultAddress) : nil
    }

    private var bufferSize: Int { bufSize ?? (udp.address == nil && serial.link != nil ? 384 : 2048) }

    func run() async throws {
        var logger = Logger(label: "smp.simulator") { StandardStream.logHandler(label: $0) }
        logger.logLevel = verbose >= 2 ? .trace : verbose == 1 ? .debug : .notice
        let device = VirtualDevice(configuration: try deviceConfiguration(), faultInjection: faults.injection, logger: logger)
        let output = Output(json: json)
        let address = try udpAddress()
        let servers: Servers
        do {
            servers = try await Servers.start(device: device, udp: address, serial: serial, seed: faults.seed, logger: logger)
        } catch {
            output.report(error)
            throw ExitCode(error.status.rawValue)
        }
        let description = (mynewt ? "mynewt-like" : flavour.description) + ", buf_size \(bufferSize), buf_count \(bufCount)"
            + (recovery.enabled ? ", MCUboot serial recovery (\(recovery.bootloaderRecovery ? "running" : "boot mode 1"))" : "")
            + (faults.injection.isActive ? ", faults on" : "")
        output.emit(.object(servers.document), human: servers.announcement(describing: description))
        _ = try? await Interruption.cancellingOnSignals { await servers.run() }
        await servers.stop()
        if verbose > 0 { Output.status("stopped after \(await device.statistics)\(await servers.serialStatistics)") }
    }

    private func deviceConfiguration() throws -> VirtualDeviceConfiguration {
        var configuration = mynewt ? VirtualDeviceConfiguration.mynewtLike : VirtualDeviceConfiguration(flavour: flavour)
        configuration.bufferSize = bufferSize
        configuration.bufferCount = bufCount
        // A Zephyr device on a serial link alone runs no network threads.
        if !mynewt && serial.link != nil && udp.address == nil { configuration.tasks = SimulatedTask.zephyrSerialDefaults }
        configuration.bootloaderMode = try mode()
        configuration.noDowngrade = noDowngrade
        configuration.initialDateTime = try initialTime()
        configuration.resetHook = refuseReset ? .refuseUnlessForced(.returnCode(.busy)) : .none
        timing.apply(to: &configuration)
        diagnostics.apply(to: &configuration)
        shellSettings.apply(to: &configuration)
        if images > 0 {
            var imageConfiguration = SimulatedImageConfiguration(imageCount: images, slotSize: slotSize)
            imageConfiguration.checksImageHash = checkImageHash
            try timing.apply(to: &imageConfiguration)
            configuration.images = imageConfiguration
        } else {
            configuration.images = nil
        }
        suit.apply(to: &configuration)
        try fileSystem.apply(to: &configuration)
        recovery.apply(to: &configuration)
        return configuration
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

/// The servers of one virtual device: UDP, a serial link, or both.
private struct Servers {
    var udp: UDPSimulatorServer?
    var serial: PTYSimulatorServer?
    var udpEndpoint: String?
    var udpPort: Int?
    var serialPath: String?
    var pseudoTerminal: String?
    var serialOptions: PTYSimulatorOptions?

    static func start(
        device: VirtualDevice, udp address: BindAddress?, serial: SerialServeOptions, seed: UInt64, logger: Logger
    ) async throws(CLIError) -> Servers {
        var servers = Servers()
        if let address {
            let server = UDPSimulatorServer(device: device, host: address.host, port: address.port, logger: logger)
            do {
                try await server.start()
            } catch {
                throw CLIError(.transport, error.description, hint: "choose another port, or 0 for a free one")
            }
            servers.udp = server
            servers.udpEndpoint = await server.endpoint ?? "udp:\(address.host):\(address.port)"
            servers.udpPort = await server.port ?? address.port
        }
        if let link = serial.link {
            let options = serial.options(seed: seed)
            let server = PTYSimulatorServer(device: device, linkPath: link, options: options, logger: logger)
            do {
                servers.serialPath = try await server.start()
            } catch {
                await servers.stop()
                throw CLIError(.transport, error.description, hint: "choose another path for --serial-link, or remove what is there")
            }
            servers.serial = server
            servers.pseudoTerminal = await server.devicePath
            servers.serialOptions = options
        }
        return servers
    }

    /// Every endpoint clients can use, UDP first.
    var endpoints: [String] { [udpEndpoint, serialPath.map { "serial:\($0)" }].compactMap { $0 } }

    /// `{"listening", "port"}` for UDP (as before serial existed), plus `"serial"` and `"pty"`.
    var document: [(String, JSONValue)] {
        var document: [(String, JSONValue)] = [("listening", .string(endpoints.first ?? ""))]
        if let udpPort { document.append(("port", .int(Int64(udpPort)))) }
        if let serialPath, let pseudoTerminal {
            document.append(("serial", .string(serialPath)))
            document.append(("pty", .string(pseudoTerminal)))
        }
        return document
    }

    func announcement(describing device: String) -> String {
        var text = "virtual SMP device listening on \(endpoints.joined(separator: " and ")) (\(device))\n"
        if let serialPath, let pseudoTerminal, let options = serialOptions {
            text += "serial link \(serialPath) → \(pseudoTerminal) (\(SerialServeOptions.describe(options)))\n"
        }
        return text + "try: smpctl -c \(endpoints.first ?? "") os info"
    }

    func run() async {
        await withTaskGroup(of: Void.self) { group in
            if let udp { group.addTask { try? await udp.run() } }
            if let serial { group.addTask { try? await serial.run() } }
        }
    }

    func stop() async {
        await udp?.stop()
        await serial?.stop()
    }

    var serialStatistics: String {
        get async {
            guard let serial else { return "" }
            return "; serial link: \(await serial.statistics)"
        }
    }
}

/// Where to serve UDP.
struct UDPServeOptions: ParsableArguments {
    static let defaultAddress = "127.0.0.1:1337"

    @Option(name: .customLong("udp"), help: ArgumentHelp(
        "Address and port to serve on: 127.0.0.1:1337, [::1]:0, 0.0.0.0:1337 (default \(defaultAddress) unless only --serial-link is given).",
        valueName: "host:port"))
    var address: String?
}

/// The serial link: a pseudo-terminal linked at a path, behaving like a UART.
struct SerialServeOptions: ParsableArguments {
    @Option(name: .customLong("serial-link"), help: ArgumentHelp(
        "Also serve on a pseudo-terminal and make PATH a symbolic link to it, e.g. /tmp/ttySMP (open it like /dev/ttyACM0).",
        valueName: "path"))
    var link: String?

    @Option(help: ArgumentHelp("Pace the serial link like a UART at this baud rate (default: as fast as the pseudo-terminal).", valueName: "baud"))
    var baud: Int?

    @Option(help: ArgumentHelp(
        "Zephyr-style log lines per second on the serial link, plus one inside every multi-line answer.", valueName: "rate"))
    var logLines: Double = 0

    @Option(help: ArgumentHelp("Fraction of serial lines that get a burst of random bytes.", valueName: "fraction"))
    var noise: Double = 0

    @Option(help: ArgumentHelp("Fraction of serial answers sent with a CRC error.", valueName: "fraction"))
    var crcErrors: Double = 0

    @Option(help: ArgumentHelp(
        "How SMP travels on the serial link: console (Zephyr's UART transport), raw (bare SMP messages, its raw UART transport) or shell (console lines through an interactive Zephyr shell).",
        valueName: "framing"))
    var framing: SerialFraming = .console

    @Option(help: ArgumentHelp(
        "Receive line buffers for SMP lines, like Zephyr's CONFIG_UART_MCUMGR_RX_BUF_COUNT: a line that arrives while all are taken is dropped (default: unlimited; 2 with --framing shell).",
        valueName: "count"))
    var lineBuffers: Int?

    @Option(help: ArgumentHelp(
        "The longest SMP line a receive buffer holds, markers and newline included; longer lines are dropped (default 128; 127 with --framing shell).",
        valueName: "bytes"))
    var lineBufferSize: Int?

    @Option(help: ArgumentHelp("How long after a line's end its receive buffer stays taken (milliseconds).", valueName: "ms"))
    var lineDrainMs: Int = 10

    func validate() throws {
        if link == nil {
            let given = [
                ("baud", baud != nil), ("log-lines", logLines != 0), ("noise", noise != 0), ("crc-errors", crcErrors != 0),
                ("framing", framing != .console), ("line-buffers", lineBuffers != nil), ("line-buffer-size", lineBufferSize != nil),
                ("line-drain-ms", lineDrainMs != 10),
            ]
            for (name, given) in given where given {
                throw ValidationError("--\(name) applies to the serial link: give --serial-link PATH too")
            }
        }
        if framing == .raw, lineBuffers != nil || lineBufferSize != nil || crcErrors != 0 {
            throw ValidationError(
                "--line-buffers, --line-buffer-size and --crc-errors apply to console lines: leave them out with --framing raw")
        }
        if framing == .console, lineBuffers == nil, lineBufferSize != nil || lineDrainMs != 10 {
            throw ValidationError("--line-buffer-size and --line-drain-ms shape the receive line buffers: give --line-buffers N too")
        }
        if let lineBuffers, !(1...64).contains(lineBuffers) { throw ValidationError("--line-buffers must be from 1 to 64") }
        if let lineBufferSize, !(16...65_536).contains(lineBufferSize) {
            throw ValidationError("--line-buffer-size must be from 16 to 65536 bytes")
        }
        if !(0...10_000).contains(lineDrainMs) { throw ValidationError("--line-drain-ms must be from 0 to 10000") }
        if let baud, !(50...20_000_000).contains(baud) { throw ValidationError("--baud must be from 50 to 20000000") }
        if !(0...1000).contains(logLines) { throw ValidationError("--log-lines must be from 0 to 1000 per second") }
        for (name, value) in [("noise", noise), ("crc-errors", crcErrors)] where !(0...1).contains(value) {
            throw ValidationError("--\(name) must be a fraction from 0 to 1, not \(value)")
        }
    }

    func options(seed: UInt64) -> PTYSimulatorOptions {
        PTYSimulatorOptions(
            baudRate: baud, logLinesPerSecond: logLines, logLinesInsideFrames: logLines > 0, noise: noise,
            crcErrors: crcErrors, seed: seed, framing: framing, lineBuffers: receiveLineBuffers)
    }

    /// The receive line buffers asked for, or the shell transport's defaults.
    private var receiveLineBuffers: PTYSimulatorOptions.LineBuffers? {
        guard framing != .raw else { return nil }
        let defaults = framing == .shell ? PTYSimulatorOptions.LineBuffers.zephyrShell : .zephyrUART
        guard let count = lineBuffers ?? (framing == .shell ? defaults.count : nil) else { return nil }
        return PTYSimulatorOptions.LineBuffers(
            count: count, size: lineBufferSize ?? defaults.size, drain: .milliseconds(lineDrainMs))
    }

    /// "115200 baud, 2 log lines/s, noise 0.01" or "unpaced", with the framing and line buffers
    /// when they are not the defaults.
    static func describe(_ options: PTYSimulatorOptions) -> String {
        var parts = [options.baudRate.map { "\($0) baud" } ?? "unpaced"]
        if options.framing != .console { parts.append("\(options.framing.rawValue) framing") }
        if let buffers = options.lineBuffers {
            let drain = Int((buffers.drain.seconds * 1000).rounded())
            parts.append("\(buffers.count) line buffers of \(buffers.size) bytes, freed \(drain) ms after each line")
        }
        if options.logLinesPerSecond > 0 { parts.append("\(options.logLinesPerSecond.formatted) log lines/s") }
        if options.noise > 0 { parts.append("noise \(options.noise.formatted)") }
        if options.crcErrors > 0 { parts.append("CRC errors \(options.crcErrors.formatted)") }
        return parts.joined(separator: ", ")
    }
}

private extension Double {
    /// "2" rather than "2.0".
    var formatted: String { self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self) }
}

extension SMPServerFlavour: ExpressibleByArgument {}
extension SerialFraming: ExpressibleByArgument {}

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
