import Foundation

/// A real labgrid lab on loopback: a `labgrid-coordinator`, exporters (each a "host" with its own
/// name and YAML resources) and places, all from labgrid's own venv (`.venv-labgrid`, made by
/// `.ci/setup --tests`, or `SMPCTL_LABGRID_PYTHON`'s folder).
public final class LabgridLab: @unchecked Sendable {
    /// A serial port an exporter publishes.
    public enum SerialResource: Sendable {
        /// `RawSerialPort`: the exporter runs ser2net (telnet with RFC 2217) on the tty while the
        /// place is acquired.
        case tty(String)
        /// `NetworkSerialPort` with protocol `raw`: a serial server already listening on 127.0.0.1:PORT.
        case rawServer(port: Int)
    }

    /// The coordinator's address, `127.0.0.1:PORT`.
    public let coordinator: String
    /// The venv's `bin` folder.
    public let bin: String
    private let scratch: URL
    private var processes: [FixtureProcess] = []

    /// The Python that has labgrid: `SMPCTL_LABGRID_PYTHON`, else `.venv-labgrid/bin/python` in the
    /// package; skips (locally) or fails (CI) when labgrid is not importable with it.
    public static func python(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let configured = ProcessInfo.processInfo.environment["SMPCTL_LABGRID_PYTHON"] ?? ""
        let python = configured.isEmpty ? ExternalTool.packageRoot.appendingPathComponent(".venv-labgrid/bin/python").path : configured
        let probe = FileManager.default.isExecutableFile(atPath: python) ? try ProcessRunner.run(python, ["-c", "import labgrid"], timeout: 60) : nil
        if probe?.status != 0 {
            try ExternalTool.unavailable("labgrid is not installed for \(python) (run .ci/setup --tests)")
        }
        return python
    }

    /// Starts a coordinator on a free loopback port.
    public static func start(file: StaticString = #filePath, line: UInt = #line) async throws -> LabgridLab {
        let python = try Self.python(file: file, line: line)
        try FixtureTools.require("ser2net", package: "ser2net")
        let scratch = try FixtureScratch.makeFolder("labgrid")
        let port = try LoopbackPorts.freeTCPPort()
        let lab = LabgridLab(coordinator: "127.0.0.1:\(port)", bin: (python as NSString).deletingLastPathComponent, scratch: scratch)
        let process = try lab.launch("coordinator", "labgrid-coordinator", ["-l", lab.coordinator])
        try await LoopbackPorts.waitUntilAccepting(port: port, process: process, timeout: 30)
        return lab
    }

    private init(coordinator: String, bin: String, scratch: URL) {
        self.coordinator = coordinator
        self.bin = bin
        self.scratch = scratch
    }

    /// Starts `program` (a name in the venv's `bin`, or an absolute path) with its log in the scratch folder.
    private func launch(_ name: String, _ program: String, _ arguments: [String]) throws -> FixtureProcess {
        let process = try FixtureProcess(
            name: name, executable: program.hasPrefix("/") ? program : "\(bin)/\(program)", arguments: arguments, workingDirectory: scratch,
            logURL: scratch.appendingPathComponent("\(name).log"))
        processes.append(process)
        return process
    }

    /// Starts an exporter named `name` publishing `groups` (group name → its serial port) and waits
    /// until the coordinator lists every group.
    public func export(_ name: String, _ groups: [(group: String, serial: SerialResource)], timeout: TimeInterval = 30) async throws {
        let yaml = groups.map { entry in
            switch entry.serial {
            case .tty(let path):
                return "\(entry.group):\n  RawSerialPort:\n    port: \(path)\n    speed: 115200\n"
            case .rawServer(let port):
                return "\(entry.group):\n  NetworkSerialPort:\n    host: 127.0.0.1\n    port: \(port)\n    protocol: raw\n    speed: 115200\n"
            }
        }.joined()
        let configuration = scratch.appendingPathComponent("\(name).yaml")
        try yaml.write(to: configuration, atomically: true, encoding: .utf8)
        let process = try launch(name, "labgrid-exporter", ["-c", coordinator, "-n", name, "--hostname", "127.0.0.1", configuration.path])
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let listed = try client(["resources"]).stdout
            if groups.allSatisfy({ listed.contains("\(name)/\($0.group)/") }) { return }
            guard process.isRunning, Date() < deadline else {
                throw FixtureProcessFailure(message: "exporter \(name) did not publish \(groups.map(\.group))", log: process.log)
            }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Starts one ser2net serving each tty in `paths` as a raw TCP port on 127.0.0.1 (as a lab's own
    /// serial server would); returns the ports, in order.
    public func serve(_ paths: [String]) async throws -> [Int] {
        let ser2net = try FixtureTools.require("ser2net", package: "ser2net")
        let ports = try paths.map { _ in try LoopbackPorts.freeTCPPort() }
        let yaml = zip(paths, ports).map { path, port in
            "connection: &tty\(port)\n  accepter: tcp,127.0.0.1,\(port)\n  connector: serialdev,\(path),115200n81,local\n  options:\n    kickolduser: true\n\n"
        }.joined()
        let configuration = scratch.appendingPathComponent("ser2net.yaml")
        try yaml.write(to: configuration, atomically: true, encoding: .utf8)
        // -n: foreground; -d: log to standard output; -u: no UUCP locks; -P: the pid file here.
        let process = try launch(
            "ser2net", ser2net, ["-n", "-d", "-u", "-P", scratch.appendingPathComponent("ser2net.pid").path, "-c", configuration.path])
        for port in ports { try await LoopbackPorts.waitUntilAccepting(port: port, process: process, timeout: 10) }
        return ports
    }

    /// Creates the place `name` matching every resource of `exporter/group`.
    public func place(_ name: String, matching match: String) throws {
        try checked(["-p", name, "create"])
        try checked(["-p", name, "add-match", "\(match)/*"])
    }

    /// Runs `labgrid-client -x COORDINATOR ARGUMENTS` as `user` on `host` (labgrid's `LG_USERNAME`, `LG_HOSTNAME`).
    @discardableResult
    public func client(_ arguments: [String], user: String? = nil, host: String? = nil) throws -> ProcessRunner.Result {
        var environment: [String: String] = [:]
        environment["LG_USERNAME"] = user
        environment["LG_HOSTNAME"] = host
        return try ProcessRunner.run("\(bin)/labgrid-client", ["-x", coordinator] + arguments, environment: environment, timeout: 60)
    }

    @discardableResult
    private func checked(_ arguments: [String]) throws -> String {
        let result = try client(arguments)
        guard result.status == 0 else {
            throw FixtureProcessFailure(message: "labgrid-client \(arguments.joined(separator: " ")) failed: \(result.stderr)", log: "")
        }
        return result.stdout
    }

    /// Who holds `place` (`HOST/USER`), or nil when it is free.
    public func holder(of place: String) throws -> String? {
        let shown = try checked(["-p", place, "show"])
        guard let line = shown.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("acquired:") }) else { return nil }
        let value = line.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
        return value == "None" ? nil : value
    }

    /// The logs of the coordinator and the exporters.
    public var logs: String { processes.map { "--- \($0.name)\n\($0.log.suffix(3000))" }.joined(separator: "\n") }

    /// Ends the exporters (they stop their ser2net) and the coordinator.
    public func stop() {
        // All at once, with SIGINT: labgrid's programs end on it at once (SIGTERM takes them 2 s
        // each), ser2net ends on SIGKILL only.
        for process in processes { kill(process.pid, SIGINT) }
        for process in processes.reversed() { process.stop(grace: 0.5) }
        processes = []
    }
}
