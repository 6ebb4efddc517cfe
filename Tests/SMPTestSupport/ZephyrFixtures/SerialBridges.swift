import Foundation

/// `socat pty,link=LINK,raw,echo=0 tcp:127.0.0.1:PORT`: a TCP serial port (QEMU's UART) as a
/// pseudo-terminal, for code that opens tty paths only.
public final class SocatPTYBridge: @unchecked Sendable {
    /// The symbolic link to the pseudo-terminal.
    public let linkPath: String
    private let process: FixtureProcess

    /// Starts socat towards 127.0.0.1:`port` and waits until the link exists.
    public static func start(towards port: Int, in scratch: URL, timeout: TimeInterval = 10) async throws -> SocatPTYBridge {
        let socat = try FixtureTools.require("socat", package: "socat")
        let link = scratch.appendingPathComponent("tty-\(port)").path
        let process = try FixtureProcess(
            name: "socat", executable: socat, arguments: ["pty,link=\(link),raw,echo=0", "tcp:127.0.0.1:\(port)"],
            workingDirectory: scratch, logURL: scratch.appendingPathComponent("socat-\(port).log"))
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: link) {
            guard process.isRunning, Date() < deadline else {
                process.stop()
                throw FixtureProcessFailure(message: "socat made no pty at \(link)", log: process.log)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return SocatPTYBridge(linkPath: link, process: process)
    }

    private init(linkPath: String, process: FixtureProcess) {
        self.linkPath = linkPath
        self.process = process
    }

    /// `serial:LINK`.
    public var connection: String { "serial:\(linkPath)" }

    /// socat's output.
    public var log: String { process.log }

    /// Ends socat.
    public func stop() { process.stop() }
}

/// The real `ser2net` (Debian package) exposing a tty on 127.0.0.1, as labs expose their serial
/// ports: raw TCP, plain telnet, or telnet with RFC 2217 port control.
public final class Ser2NetBridge: @unchecked Sendable {
    /// What ser2net's accepter speaks.
    public enum Accepter: Sendable {
        /// `tcp`: the UART's bytes.
        case raw
        /// `telnet`: telnet without RFC 2217 (it refuses COM-PORT-OPTION).
        case telnet
        /// `telnet(rfc2217)`.
        case rfc2217

        var yaml: String {
            switch self {
            case .raw: "tcp"
            case .telnet: "telnet,tcp"
            case .rfc2217: "telnet(rfc2217),tcp"
            }
        }
    }

    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// What the port speaks.
    public let accepter: Accepter
    private let process: FixtureProcess

    /// Writes a ser2net YAML configuration for `device` in `scratch`, starts ser2net in the
    /// foreground and waits until the port accepts connections. The device need not exist: ser2net
    /// opens it for each connection (and tells a client it cannot).
    public static func start(
        exposing device: String, in scratch: URL, accepter: Accepter = .raw, timeout: TimeInterval = 10
    ) async throws -> Ser2NetBridge {
        let ser2net = try FixtureTools.require("ser2net", package: "ser2net")
        let port = try LoopbackPorts.freeTCPPort()
        let configuration = scratch.appendingPathComponent("ser2net-\(port).yaml")
        let yaml = """
            connection: &smp\(port)
              accepter: \(accepter.yaml),127.0.0.1,\(port)
              connector: serialdev,\(device),115200n81,local
              options:
                kickolduser: true

            """
        try yaml.write(to: configuration, atomically: true, encoding: .utf8)
        // -n: stay in the foreground; -d: log to standard output; -u: no UUCP lock files;
        // -P: the pid file in the scratch folder, not /run; -c: this configuration only.
        let pidFile = scratch.appendingPathComponent("ser2net-\(port).pid").path
        let process = try FixtureProcess(
            name: "ser2net", executable: ser2net, arguments: ["-n", "-d", "-u", "-P", pidFile, "-c", configuration.path],
            workingDirectory: scratch, logURL: scratch.appendingPathComponent("ser2net-\(port).log"))
        do {
            try await LoopbackPorts.waitUntilAccepting(port: port, process: process, timeout: timeout)
        } catch {
            process.stop()
            throw error
        }
        return Ser2NetBridge(port: port, accepter: accepter, process: process)
    }

    private init(port: Int, accepter: Accepter, process: FixtureProcess) {
        self.port = port
        self.accepter = accepter
        self.process = process
    }

    /// `serial:tcp://127.0.0.1:PORT` for a raw port, else `serial:rfc2217://127.0.0.1:PORT`.
    public var connection: String { "serial:\(accepter == .raw ? "tcp" : "rfc2217")://127.0.0.1:\(port)" }

    /// ser2net's output.
    public var log: String { process.log }

    /// Ends ser2net.
    public func stop() { process.stop() }

    /// Ends ser2net at once (no time to close its connections), as a lab host that loses power.
    public func kill() { process.stop(grace: 0) }
}
