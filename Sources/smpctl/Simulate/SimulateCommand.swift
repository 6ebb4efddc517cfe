import ArgumentParser
import Logging
import SMP
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

            Many devices: smpctl simulate --udp 127.0.0.1:14000 --count 10 --device-fault 3:die-mid-upload \
            serves sim-1 to sim-10 on ports 14000 to 14009, each with its own flash; the fault options above \
            apply to every device (each with its own seed, --seed + index - 1).

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

    @OptionGroup(title: "Many devices") var many: SimulateCountOptions

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
    @OptionGroup(title: "Nordic DFU bootloader") var nordic: NordicDFUSimulateOptions

    @Flag(help: "Print the listening addresses as JSON.")
    var json = false

    @Flag(name: .short, help: "Log every request on standard error (-vv: every frame).")
    var verbose: Int

    func validate() throws {
        try NumericRange.images.check(images)
        try NumericRange.slotSize.check(slotSize)
        try NumericRange.bufSize.check(bufSize)
        try NumericRange.bufCount.check(bufCount)
        if recovery.enabled && images == 0 {
            throw ValidationError("MCUboot serial recovery writes image slots: leave out --images 0")
        }
        if let address = try udpAddress(), address.port != 0, address.port + many.devices - 1 > 65_535 {
            throw ValidationError("--udp \(udp.address ?? UDPServeOptions.defaultAddress) with --count \(many.devices): the ports would end "
                + "above 65535; start lower, or use port 0 for free ports")
        }
        _ = try mode()
        _ = try initialTime()
        if udp.dtlsRequested {
            guard !nordic.nordicDFU else { throw ValidationError("--nordic-dfu serves no DTLS: leave out the --dtls-* options") }
            guard try udpAddress() != nil else {
                throw ValidationError("the --dtls-* options secure the UDP server: add --udp HOST:PORT")
            }
        }
        if nordic.nordicDFU {
            guard (serial.link == nil) != (udp.address == nil), many.count == nil else {
                throw ValidationError("--nordic-dfu serves one device: give --serial-link PATH (a serial bootloader) or --udp HOST:PORT "
                    + "(the BlueZ mock's BLE bridge), not both, without --count")
            }
            if serial.link != nil, nordic.dfuButtonless != nil {
                throw ValidationError("--dfu-buttonless serves an application over BLE: give --udp HOST:PORT instead of --serial-link")
            }
        }
    }

    /// Where to serve UDP: `--udp`, or the default address when no serial link is asked for.
    private func udpAddress() throws -> SimulatorBindAddress? {
        do {
            if let address = udp.address { return try SimulatorBindAddress(parsing: address) }
            return serial.link == nil ? try SimulatorBindAddress(parsing: UDPServeOptions.defaultAddress) : nil
        } catch {
            throw ValidationError("--udp \(error.description)")
        }
    }

    private var bufferSize: Int { bufSize ?? (udp.address == nil && serial.link != nil ? 384 : 2048) }

    func run() async throws {
        var logger = Logger(label: "smp.simulator") { StandardStream.logHandler(label: $0) }
        logger.logLevel = verbose >= 2 ? .trace : verbose == 1 ? .debug : .notice
        if nordic.nordicDFU {
            try await serveNordicDFU(logger: logger)
            return
        }
        let configuration = try deviceConfiguration()
        let deviceFaults = try many.faults()
        let devices = (1...many.devices).map { index in
            var own = configuration
            if many.count != nil { own.identity.nodeName = SimulatorFleet.name(index) }
            var injection = faults.injection
            injection.seed = faults.seed &+ UInt64(index - 1)
            let faults = deviceFaults[index] ?? []
            return (VirtualDevice(configuration: own, faultInjection: injection, deviceFaults: faults, logger: logger), faults)
        }
        let output = Output(json: json)
        let address = try udpAddress()
        let servers: SimulatorFleet
        do {
            servers = try await SimulatorFleet.start(
                devices: devices, listsDevices: many.count != nil, udp: address, dtls: udp.dtlsContext(), serial: serial,
                seed: faults.seed, logger: logger)
        } catch {
            output.report(error)
            throw ExitCode(error.status.rawValue)
        }
        let description = (mynewt ? "mynewt-like" : flavour.description) + ", buf_size \(bufferSize), buf_count \(bufCount)"
            + (recovery.enabled ? ", MCUboot serial recovery (\(recovery.bootloaderRecovery ? "running" : "boot mode 1"))" : "")
            + (faults.injection.isActive || !deviceFaults.isEmpty ? ", faults on" : "")
            + (udp.dtlsDescription.map { ", \($0)" } ?? "")
        let announcement = servers.announcement(describing: description, connectionOptions: udp.dtlsConnectionOptions)
        // Said once Ctrl-C is caught: whoever waits for it may stop the device at once.
        _ = try? await Interruption.cancellingOnSignals { [document = servers.document] in
            output.emit(.object(document), human: announcement)
            await servers.run()
        }
        await servers.stop()
        if verbose > 0 { Output.status("stopped after \(await servers.statistics)") }
    }

    /// Serves the Nordic DFU bootloader (Secure, or legacy with --dfu-legacy) on the serial link,
    /// or the Nordic DFU device on the BLE bridge, until Ctrl-C.
    private func serveNordicDFU(logger: Logger) async throws {
        let output = Output(json: json)
        if let address = try udpAddress(), serial.link == nil {
            try await serveNordicDFUBridge(on: address, output: output, logger: logger)
            return
        }
        let server: any NordicDFUSimulatorServer = nordic.dfuLegacy
            ? LegacyDFUSerialPTYServer(
                target: try nordic.legacyTarget(), linkPath: serial.link,
                faults: LegacyDFUSerialPTYServer.Faults(lostAcknowledgementFraction: nordic.dfuLoseWrites, seed: faults.seed), logger: logger)
            : SecureDFUPTYServer(target: try nordic.target(seed: faults.seed), linkPath: serial.link, logger: logger)
        let path: String
        do {
            path = try await server.start()
        } catch {
            let failure = CLIError(serialLink: error)
            output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
        let description = nordic.dfuLegacy ? nordic.legacyDescription : nordic.description
        let file = nordic.dfuSDK6 ? "APP.bin --bare" : "PACKAGE.zip"
        let announcement = "virtual \(description) on \(path)\ntry: smpctl -c serial:\(path) upgrade \(file)"
        _ = try? await Interruption.cancellingOnSignals {
            output.emit(
                .object([
                    ("listening", .string("serial:\(path)")), ("serial", .string(path)),
                    ("device", .string(nordic.dfuLegacy ? "nordic-legacy-dfu" : "nordic-secure-dfu")),
                ]),
                human: announcement)
            try await Task.sleep(for: .seconds(365 * 24 * 3600))
        }
        await server.stop()
        if verbose > 0 { Output.status("stopped after \(await server.statisticsSummary)") }
    }

    /// Serves the Nordic DFU device for `mock_bluez.py --dfu-device` until Ctrl-C.
    private func serveNordicDFUBridge(on address: SimulatorBindAddress, output: Output, logger: Logger) async throws {
        let server = NordicDFUDatagramServer(
            peripheral: try nordic.peripheral(seed: faults.seed), host: address.host, port: address.port, logger: logger)
        let port: Int
        do {
            port = try await server.start()
        } catch {
            let failure = CLIError(udp: error)
            output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
        let endpoint = await server.endpoint ?? "udp:\(address.host):\(port)"
        let announcement = "virtual \(nordic.description) listening on \(endpoint), a BLE device behind the BlueZ mock\n"
            + "try: mock_bluez.py --dfu-device \(nordic.mockDevice(port: port)) (docs/ble-testing.md)"
        _ = try? await Interruption.cancellingOnSignals {
            output.emit(
                .object([
                    ("listening", .string(endpoint)), ("port", .int(Int64(port))),
                    ("device", .string("nordic-dfu-bridge")), ("mockKind", .string(nordic.mockDeviceKind)),
                ]),
                human: announcement)
            try await Task.sleep(for: .seconds(365 * 24 * 3600))
        }
        await server.stop()
        if verbose > 0 { Output.status("stopped after \(await server.receivedDatagrams) datagrams") }
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
