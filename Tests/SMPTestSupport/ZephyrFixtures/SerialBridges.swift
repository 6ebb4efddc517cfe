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

/// The real `ser2net` (Debian package) exposing a tty as a raw TCP port on 127.0.0.1, as labs
/// expose their serial ports.
public final class Ser2NetBridge: @unchecked Sendable {
    /// The TCP port on 127.0.0.1.
    public let port: Int
    private let process: FixtureProcess

    /// Writes a ser2net YAML configuration for `device` in `scratch`, starts ser2net in the
    /// foreground and waits until the port accepts connections.
    public static func start(exposing device: String, in scratch: URL, timeout: TimeInterval = 10) async throws -> Ser2NetBridge {
        let ser2net = try FixtureTools.require("ser2net", package: "ser2net")
        let port = try LoopbackPorts.freeTCPPort()
        let configuration = scratch.appendingPathComponent("ser2net-\(port).yaml")
        let yaml = """
            connection: &smp\(port)
              accepter: tcp,127.0.0.1,\(port)
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
        return Ser2NetBridge(port: port, process: process)
    }

    private init(port: Int, process: FixtureProcess) {
        self.port = port
        self.process = process
    }

    /// `serial:tcp://127.0.0.1:PORT`.
    public var connection: String { "serial:tcp://127.0.0.1:\(port)" }

    /// ser2net's output.
    public var log: String { process.log }

    /// Ends ser2net.
    public func stop() { process.stop() }
}
