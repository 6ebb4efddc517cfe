import Foundation

/// A QEMU fixture (`qemu_cmd` in the manifest) whose UART is a TCP server on 127.0.0.1.
///
/// QEMU runs in the fixtures folder (it only reads the images there); an `os reset` reboots the
/// emulated board without ending QEMU, or, with ``Memory/persistent``, restarts it from a dump of
/// its memory on the same client port.
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

    /// What happens to the emulated board's memory on a reset.
    public enum Memory: Sendable {
        /// The manifest's `qemu_cmd` as it is: QEMU copies its `-device loader` files in again on
        /// every reset, so an image written into slot 0 is replaced by the original.
        case reloadedOnReset
        /// Memory survives resets as a real board's flash does (`Tests/Scripts/qemu/persistent_flash.py`
        /// restarts QEMU from a dump of ``persistentRegions`` after each guest reset, behind a TCP
        /// relay that keeps the client's port).
        case persistent
    }

    /// The guest memory that `Memory.persistent` keeps across resets, by board (address, size):
    /// on mps2-an385 SSRAM1 (MCUboot's code) and SSRAM2/3 (the slots, the retained boot mode and
    /// the RAM-load area), the memories Zephyr's board definition uses; on the micro:bit (nRF51)
    /// its 256 KiB flash (MCUboot, both slots, the scratch and storage) and 16 KiB RAM.
    public static let persistentRegions: [String: [(address: Int, size: Int)]] = [
        "mps2_an385": [(0x0000_0000, 0x40_0000), (0x2000_0000, 0x40_0000)],
        "qemu_cortex_m0": [(0x0000_0000, 0x4_0000), (0x2000_0000, 0x4000)],
    ]

    /// Seconds after each restart during which `Memory.persistent` drops the client's bytes, by
    /// board: QEMU's micro:bit UART stops receiving for good when bytes arrive while the guest
    /// boots (seen with smpctl's polls after an upgrade's reset; the same requests a few seconds
    /// later are answered), which a board's UART does not do.
    public static let bootQuiet: [String: Double] = ["qemu_cortex_m0": 3]

    /// Starts `fixture` on a free port and waits until its UART accepts connections.
    public static func start(_ fixture: ZephyrFixture, in folder: ZephyrFixtureFolder, memory: Memory = .reloadedOnReset) async throws -> QEMUDevice {
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
            let log = scratch.appendingPathComponent("qemu.log")
            do {
                let process: FixtureProcess
                switch memory {
                case .reloadedOnReset:
                    let arguments = words.dropFirst().map { $0.replacingOccurrences(of: "<PORT>", with: String(port)) }
                    process = try FixtureProcess(
                        name: fixture.name, executable: program, arguments: arguments, workingDirectory: folder.url, logURL: log)
                    do {
                        try await LoopbackPorts.waitUntilAccepting(port: port, process: process, timeout: startTimeout)
                    } catch {
                        process.stop()
                        throw error
                    }
                case .persistent:
                    process = try await startPersistent(fixture, words: words, port: port, in: folder, scratch: scratch, log: log)
                }
                return QEMUDevice(fixture: fixture, scratch: scratch, port: port, process: process)
            } catch {
                lastFailure = error
            }
        }
        throw lastFailure ?? FixtureProcessFailure(message: "\(fixture.name) did not start", log: "")
    }

    /// Starts `persistent_flash.py` serving the UART on `port` and waits until it says `ready`.
    private static func startPersistent(
        _ fixture: ZephyrFixture, words: [String], port: Int, in folder: ZephyrFixtureFolder, scratch: URL, log: URL
    ) async throws -> FixtureProcess {
        guard let regions = persistentRegions[fixture.target] else {
            throw FixtureProcessFailure(message: "\(fixture.name): no persistent memory regions known for board \(fixture.target)", log: "")
        }
        let regionArguments = regions.flatMap { ["--region", "0x" + String($0.address, radix: 16) + ":0x" + String($0.size, radix: 16)] }
        let process = try FixtureProcess(
            name: "\(fixture.name) (persistent memory)", executable: ExternalTool.python,
            arguments: [ExternalTool.script("qemu/persistent_flash.py"), "--port", String(port), "--scratch", scratch.path]
                + regionArguments + ["--boot-quiet", String(bootQuiet[fixture.target] ?? 0), "--"] + words,
            workingDirectory: folder.url, logURL: log)
        do {
            _ = try await process.waitForLine(timeout: startTimeout, what: "ready line") { $0 == "ready 127.0.0.1:\(port)" ? true : nil }
        } catch {
            process.stop()
            throw error
        }
        return process
    }

    private init(fixture: ZephyrFixture, scratch: URL, port: Int, process: FixtureProcess) {
        self.fixture = fixture
        self.scratch = scratch
        self.port = port
        self.process = process
    }

    /// `serial:tcp://127.0.0.1:PORT`: the UART as smpctl reaches a serial port over TCP.
    public var tcpConnection: String { "serial:tcp://127.0.0.1:\(port)" }

    /// The process ID of QEMU, or of its supervisor for `Memory.persistent`.
    public var pid: Int32 { process.pid }

    /// Whether QEMU runs.
    public var isRunning: Bool { process.isRunning }

    /// QEMU's output.
    public var log: String { process.log }

    /// How many guest resets a `Memory.persistent` device went through (`reset N` lines of its log).
    public var resets: Int {
        log.split(separator: "\n").reduce(0) { count, line in
            line.hasPrefix("reset ") ? max(count, Int(line.dropFirst(6)) ?? count) : count
        }
    }

    /// Waits until a `Memory.persistent` device has gone through more than `count` resets.
    /// Throws ``FixtureProcessFailure`` when QEMU ends or `timeout` passes first.
    public func waitForReset(after count: Int, timeout: TimeInterval = 15) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while resets <= count {
            guard isRunning else { throw FixtureProcessFailure(message: "\(fixture.name): QEMU ended instead of resetting", log: log) }
            guard Date() < deadline else {
                throw FixtureProcessFailure(message: "\(fixture.name) did not reset within \(timeout) s (resets so far: \(count))", log: log)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Ends QEMU (and its supervisor for `Memory.persistent`).
    public func stop() { process.stop() }
}
