import JSON
import Logging
import SMP
import SMPSimulator
import SMPUDP

/// The servers of every device `simulate` serves: one (as before `--count`), or `--count N`
/// each with its own UDP port and serial link.
struct SimulatorFleet {
    /// One served device.
    struct Member {
        var index: Int
        var device: VirtualDevice
        var servers: SimulatorServers
        var faults: [DeviceFault]
    }

    var members: [Member]
    /// Whether `--count` was given: the announcement lists every device.
    var listsDevices: Bool

    /// Starts every device's servers: device i on the UDP port `address.port + i - 1` and the
    /// serial link `PATH-i`. With port 0 the ports are still consecutive (so that
    /// `udp:HOST:FIRST-LAST` reaches them all): from a free one, tried again from another when a
    /// port after it is taken. Stops what started when one fails.
    static func start(
        devices: [(device: VirtualDevice, faults: [DeviceFault])], listsDevices: Bool, udp address: SimulatorBindAddress?,
        dtls: DTLSContext?, serial: SerialServeOptions, seed: UInt64, logger: Logger
    ) async throws(CLIError) -> SimulatorFleet {
        guard let address, address.port == 0, devices.count > 1 else {
            return try await start(devices: devices, listsDevices: listsDevices, udp: address, from: address?.port ?? 0, dtls: dtls, serial: serial, seed: seed, logger: logger)
        }
        var attempts = 0
        while true {
            let first = try await start(devices: Array(devices.prefix(1)), listsDevices: listsDevices, udp: address, from: 0, dtls: dtls, serial: serial, seed: seed, logger: logger)
            guard let port = first.members.first?.servers.udpPort else { return first }
            await first.stop()
            do {
                return try await start(devices: devices, listsDevices: listsDevices, udp: address, from: port, dtls: dtls, serial: serial, seed: seed, logger: logger)
            } catch {
                attempts += 1
                if attempts >= 20 { throw error }
            }
        }
    }

    /// Starts every device's servers, device i on UDP port `port + i - 1`.
    private static func start(
        devices: [(device: VirtualDevice, faults: [DeviceFault])], listsDevices: Bool, udp address: SimulatorBindAddress?, from port: Int,
        dtls: DTLSContext?, serial: SerialServeOptions, seed: UInt64, logger: Logger
    ) async throws(CLIError) -> SimulatorFleet {
        var fleet = SimulatorFleet(members: [], listsDevices: listsDevices)
        for (offset, entry) in devices.enumerated() {
            let index = offset + 1
            let udp = address.map { SimulatorBindAddress(host: $0.host, port: port == 0 ? 0 : port + offset) }
            let link = serial.link.map { listsDevices ? "\($0)-\(index)" : $0 }
            do {
                let servers = try await SimulatorServers.start(
                    device: entry.device, udp: udp, dtls: dtls, serialLink: link, serial: serial, seed: seed &+ UInt64(offset), logger: logger)
                fleet.members.append(Member(index: index, device: entry.device, servers: servers, faults: entry.faults))
            } catch {
                await fleet.stop()
                throw listsDevices ? CLIError(error.status, "device \(index): \(error.message)", hint: error.hint) : error
            }
        }
        return fleet
    }

    /// The first device's keys (`listening`, `port`, `serial`, `pty`), and with `--count` every
    /// device under `devices`.
    var document: [(String, JSONValue)] {
        var document = members.first?.servers.document ?? []
        if listsDevices {
            document.append(("devices", .array(members.map { member in
                var entry: [(String, JSONValue)] = [
                    ("index", .int(Int64(member.index))), ("name", .string(Self.name(member.index))),
                    ("connection", .string(member.servers.endpoints.first ?? "")),
                ]
                entry += member.servers.document.filter { $0.0 != "listening" }
                if !member.faults.isEmpty { entry.append(("faults", .array(member.faults.map { .string($0.description) }))) }
                return .object(entry)
            })))
        }
        return document
    }

    /// What `simulate` says it serves; the `try:` line adds `connectionOptions` (DTLS) to the endpoint.
    func announcement(describing device: String, connectionOptions: String) -> String {
        guard listsDevices, let first = members.first else {
            return members.first?.servers.announcement(describing: device, connectionOptions: connectionOptions) ?? ""
        }
        var text = "\(members.count) virtual SMP device\(members.count == 1 ? "" : "s") listening (\(device)):\n"
        for member in members {
            text += "  \(Self.name(member.index))  \(member.servers.endpoints.joined(separator: " and "))"
            if let serialPath = member.servers.serialPath, let pseudoTerminal = member.servers.pseudoTerminal {
                text += " (\(serialPath) → \(pseudoTerminal))"
            }
            if !member.faults.isEmpty { text += "  faults: \(member.faults.map(\.description).joined(separator: ", "))" }
            text += "\n"
        }
        if let options = first.servers.serialOptions { text += "serial links: \(SerialServeOptions.describe(options))\n" }
        if let range = udpRange { text += "all of them: \(range)\n" }
        return text + SimulatorServers.tryLine(udpRange ?? first.servers.endpoints.first ?? "", connectionOptions: connectionOptions)
    }

    /// `udp:HOST:FIRST-LAST` when the devices' UDP ports are consecutive.
    private var udpRange: String? {
        let ports = members.compactMap(\.servers.udpPort)
        guard ports.count == members.count, ports.count > 1, let first = ports.first, let last = ports.last,
              ports == Array(first...max(first, last)), let endpoint = members.first?.servers.udpEndpoint,
              let colon = endpoint.lastIndex(of: ":")
        else { return nil }
        return "\(endpoint[..<colon]):\(first)-\(last)"
    }

    /// The name device `index` reports (`os info` node name) with `--count`.
    static func name(_ index: Int) -> String { "sim-\(index)" }

    func run() async {
        await withTaskGroup(of: Void.self) { group in
            for member in members { group.addTask { await member.servers.run() } }
        }
    }

    func stop() async {
        for member in members { await member.servers.stop() }
    }

    /// What the devices processed, for `-v` at the end.
    var statistics: String {
        get async {
            var lines: [String] = []
            for member in members {
                let prefix = listsDevices ? "\(Self.name(member.index)): " : ""
                lines.append(prefix + "\(await member.device.statistics)\(await member.servers.serialStatistics)")
            }
            return lines.joined(separator: "\n")
        }
    }
}
