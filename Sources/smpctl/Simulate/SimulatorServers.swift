import JSON
import Logging
import SMP
import SMPSimulator
import SMPUDP

/// The servers of one virtual device: UDP, a serial link, or both.
struct SimulatorServers {
    var udp: UDPSimulatorServer?
    var serial: PTYSimulatorServer?
    var udpEndpoint: String?
    var udpPort: Int?
    var serialPath: String?
    var pseudoTerminal: String?
    var serialOptions: PTYSimulatorOptions?

    static func start(
        device: VirtualDevice, udp address: SimulatorBindAddress?, dtls: DTLSContext?, serialLink link: String?, serial: SerialServeOptions,
        seed: UInt64, logger: Logger
    ) async throws(CLIError) -> SimulatorServers {
        var servers = SimulatorServers()
        if let address {
            let server = UDPSimulatorServer(device: device, host: address.host, port: address.port, dtls: dtls, logger: logger)
            do {
                try await server.start()
            } catch {
                throw CLIError(udp: error)
            }
            servers.udp = server
            servers.udpEndpoint = await server.endpoint ?? "udp:\(address.host):\(address.port)"
            servers.udpPort = await server.port ?? address.port
        }
        if let link {
            let options = serial.options(seed: seed)
            let server = PTYSimulatorServer(device: device, linkPath: link, options: options, logger: logger)
            do {
                servers.serialPath = try await server.start()
            } catch {
                await servers.stop()
                throw CLIError(serialLink: error)
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

    /// What `simulate` says it serves; the `try:` line adds `connectionOptions` (DTLS) to the endpoint.
    func announcement(describing device: String, connectionOptions: String) -> String {
        var text = "virtual SMP device listening on \(endpoints.joined(separator: " and ")) (\(device))\n"
        if let serialPath, let pseudoTerminal, let options = serialOptions {
            text += "serial link \(serialPath) → \(pseudoTerminal) (\(SerialServeOptions.describe(options)))\n"
        }
        return text + Self.tryLine(endpoints.first ?? "", connectionOptions: connectionOptions)
    }

    /// `try: smpctl -c ENDPOINT os info`, the connection string quoted when it has options.
    static func tryLine(_ endpoint: String, connectionOptions: String) -> String {
        "try: smpctl -c " + (connectionOptions.isEmpty ? endpoint : "'\(endpoint)\(connectionOptions)'") + " os info"
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

extension CLIError {
    /// A UDP port the simulator could not bind.
    init(udp error: SimulatorServerError) {
        self.init(.transport, error.description, hint: "choose another port, or 0 for a free one")
    }

    /// A serial link the simulator could not make (a path taken, no pseudo-terminal).
    init(serialLink error: SimulatorServerError) {
        self.init(.transport, error.description, hint: "choose another path for --serial-link, or remove what is there")
    }
}
