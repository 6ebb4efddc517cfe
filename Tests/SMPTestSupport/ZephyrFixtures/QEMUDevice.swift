import Foundation

/// A QEMU fixture (`qemu_cmd` in the manifest) whose UART is a TCP server on 127.0.0.1.
///
/// QEMU runs in the fixtures folder (it only reads the images there); an `os reset` reboots the
/// emulated board without ending QEMU.
public final class QEMUDevice: @unchecked Sendable {
    /// The fixture.
    public let fixture: ZephyrFixture
    /// The temporary folder holding the log.
    public let scratch: URL
    /// The TCP port of the device's UART on 127.0.0.1.
    public let port: Int
    private let process: FixtureProcess

    /// How long QEMU may take to listen.
    public static let startTimeout: TimeInterval = 15

    /// Starts `fixture` on a free port and waits until its UART accepts connections.
    public static func start(_ fixture: ZephyrFixture, in folder: ZephyrFixtureFolder) async throws -> QEMUDevice {
        guard let command = fixture.qemuCmd else {
            throw FixtureProcessFailure(message: "\(fixture.name) has no qemu_cmd in the manifest", log: "")
        }
        let words = command.split(separator: " ").map(String.init)
        guard let program = words.first else { throw FixtureProcessFailure(message: "\(fixture.name): empty qemu_cmd", log: "") }
        try FixtureTools.require(program, package: "qemu-system-arm")
        let scratch = try FixtureScratch.makeFolder(fixture.name)
        var lastFailure: (any Error)?
        // The free port may be taken by someone else before QEMU binds it: try a few.
        for _ in 0..<3 {
            let port = try LoopbackPorts.freeTCPPort()
            let arguments = words.dropFirst().map { $0.replacingOccurrences(of: "<PORT>", with: String(port)) }
            let process = try FixtureProcess(
                name: fixture.name, executable: program, arguments: arguments, workingDirectory: folder.url,
                logURL: scratch.appendingPathComponent("qemu.log"))
            do {
                try await LoopbackPorts.waitUntilAccepting(port: port, process: process, timeout: startTimeout)
                return QEMUDevice(fixture: fixture, scratch: scratch, port: port, process: process)
            } catch {
                process.stop()
                lastFailure = error
            }
        }
        throw lastFailure ?? FixtureProcessFailure(message: "\(fixture.name) did not start", log: "")
    }

    private init(fixture: ZephyrFixture, scratch: URL, port: Int, process: FixtureProcess) {
        self.fixture = fixture
        self.scratch = scratch
        self.port = port
        self.process = process
    }

    /// `serial:tcp://127.0.0.1:PORT`: the UART as smpctl reaches a serial port over TCP.
    public var tcpConnection: String { "serial:tcp://127.0.0.1:\(port)" }

    /// Whether QEMU runs.
    public var isRunning: Bool { process.isRunning }

    /// QEMU's output.
    public var log: String { process.log }

    /// Ends QEMU.
    public func stop() { process.stop() }
}
