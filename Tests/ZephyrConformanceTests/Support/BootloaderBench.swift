import Foundation
import SMPTestSupport
import XCTest

/// An MCUboot QEMU fixture whose memory survives resets (``QEMUDevice/Memory/persistent``), the
/// smpctl runs against it, and what the tests check after each: which firmware answers (the
/// application or MCUboot's serial recovery) and which image runs.
final class BootloaderBench: @unchecked Sendable {
    let device: QEMUDevice
    let folder: ZephyrFixtureFolder
    /// Signed images, smpctl's cache; removed by ``stop()``.
    let scratch: URL
    /// With ``Route/rfc2217``: the pty socat makes of the UART, and ser2net serving it.
    private let bridges: (pty: SocatPTYBridge, server: Ser2NetBridge)?

    var fixture: ZephyrFixture { device.fixture }

    /// How smpctl reaches the board.
    enum Route {
        /// The supervisor's TCP port (raw bytes).
        case direct
        /// As a lab does: the UART as a pseudo-terminal (socat), served by ser2net's RFC 2217 accepter.
        case rfc2217
    }

    /// The connection string: the supervisor's TCP port or ser2net's RFC 2217 port, with
    /// `?framing=raw` for the raw recovery build.
    var connection: String { (bridges?.server.connection ?? device.tcpConnection) + framingQuery(fixture) }

    /// How long the device may take to answer after a start or reset (MCUboot copies the image
    /// into RAM first).
    static let bootTimeout: TimeInterval = 20
    /// How long the board gets after a restart before the first request.
    static let settleTime: Duration = .seconds(1)

    /// Who answers on the UART.
    enum Firmware: String {
        case application, recovery
    }

    /// Starts `TARGET/CONFIG` (by default an mps2_an385 fixture) with persistent memory, stopped
    /// by the test's teardown, and waits until the application answers.
    static func start(
        target: String = "mps2_an385", config: String, route: Route = .direct, for test: XCTestCase
    ) async throws -> BootloaderBench {
        let bench = try await start(target: target, config: config, route: route)
        test.addTeardownBlock { bench.stop() }
        return bench
    }

    /// Starts `TARGET/CONFIG` with persistent memory and waits until the application answers;
    /// the caller stops it (a failed start stops it here).
    static func start(target: String = "mps2_an385", config: String, route: Route = .direct) async throws -> BootloaderBench {
        let folder = try ZephyrFixtureFolder.require()
        let fixture = try folder.fixture(target: target, config: config)
        let device = try await QEMUDevice.start(fixture, in: folder, memory: .persistent)
        let bench: BootloaderBench
        do {
            var bridges: (SocatPTYBridge, Ser2NetBridge)?
            if route == .rfc2217 {
                // The supervisor keeps the client's connection across resets, so the pty lives on.
                let pty = try await SocatPTYBridge.start(towards: device.port, in: device.scratch)
                do {
                    bridges = (pty, try await Ser2NetBridge.start(exposing: pty.linkPath, in: device.scratch, accepter: .rfc2217))
                } catch {
                    pty.stop()
                    throw error
                }
            }
            bench = BootloaderBench(
                device: device, folder: folder, scratch: try FixtureScratch.makeFolder("bootloader-upgrade"), bridges: bridges)
        } catch {
            device.stop()
            throw error
        }
        do {
            try await bench.waitUntilAnswering(.application)
        } catch {
            bench.stop()
            throw error
        }
        return bench
    }

    private init(device: QEMUDevice, folder: ZephyrFixtureFolder, scratch: URL, bridges: (SocatPTYBridge, Ser2NetBridge)?) {
        self.device = device
        self.folder = folder
        self.scratch = scratch
        self.bridges = bridges.map { (pty: $0.0, server: $0.1) }
    }

    /// A new application image with `version` (`.bin`, or Intel HEX at slot 0's address for `hex`),
    /// signed for `loadAddress` (by default the one the application is linked for; nil: run from
    /// its slot) and a slot of `slotSize`.
    func image(
        version: String, fileExtension: String = "bin", loadAddress: String? = SignedTestImage.loadAddress, slotSize: String = "0x80000"
    ) throws -> URL {
        try SignedTestImage.make(
            for: fixture, in: folder, version: version, scratch: scratch, fileExtension: fileExtension, loadAddress: loadAddress,
            slotSize: slotSize)
    }

    /// Runs `smpctl -c CONNECTION ARGUMENTS`.
    func smpctl(_ arguments: [String], timeout: TimeInterval = 30) async throws -> SMPCtlInvocation {
        try await SMPCtlInvocation.run(["-c", connection] + arguments, cache: scratch, timeout: timeout)
    }

    /// Runs smpctl and fails unless it exits 0; returns the run.
    @discardableResult
    func succeed(_ arguments: [String], timeout: TimeInterval = 30) async throws -> SMPCtlInvocation {
        let run = try await smpctl(arguments, timeout: timeout)
        guard run.status == 0, !run.timedOut else { throw Failure("smpctl failed\n\(run)\n\(logs)") }
        return run
    }

    /// Waits until `os params` answers with the buffer size of `firmware` (the application's
    /// from the manifest, or the recovery's), and fails when another one answers.
    func waitUntilAnswering(_ firmware: Firmware) async throws {
        let expected = firmware == .application ? fixture.bufSize : fixture.recoveryBufSize ?? -1
        let deadline = Date().addingTimeInterval(Self.bootTimeout)
        var last: SMPCtlInvocation?
        while Date() < deadline {
            guard device.isRunning else { throw Failure("QEMU ended\n\(logs)") }
            let run = try await smpctl(["os", "params", "--json", "--timeout", "2", "--retries", "0"], timeout: 10)
            if run.status == 0, let size = run.lastJSONObject?["bufferSize"] as? Int {
                guard size == expected else {
                    throw Failure("expected the \(firmware) (buf_size \(expected)) to answer, got buf_size \(size)\n\(run)\n\(logs)")
                }
                return
            }
            last = run
            try await Task.sleep(for: .milliseconds(500))
        }
        throw Failure("the \(firmware) did not answer within \(Self.bootTimeout) s\n\(last.map(String.init(describing:)) ?? "")\n\(logs)")
    }

    /// `smpctl os reset [--boot-mode bootloader]`, then waits for the restart and for `firmware`.
    func reset(into firmware: Firmware) async throws {
        let before = device.resets
        try await succeed(["os", "reset", "--json"] + (firmware == .recovery ? ["--boot-mode", "bootloader"] : []))
        try await device.waitForReset(after: before)
        // A request that reaches MCUboot's raw recovery while it starts can leave its receiver
        // out of step with the messages that follow: let the board boot first.
        try await Task.sleep(for: Self.settleTime)
        try await waitUntilAnswering(firmware)
    }

    /// The images the device lists (`image list --json`).
    func images() async throws -> [[String: Any]] {
        let run = try await succeed(["image", "list", "--json"])
        guard let images = run.lastJSONObject?["images"] as? [[String: Any]] else { throw Failure("no images in\n\(run)") }
        return images
    }

    /// Fails unless the application answers and runs `version` (from `slot`, if given).
    func expectRunning(_ version: String, slot: Int? = nil, file: StaticString = #filePath, line: UInt = #line) async throws {
        try await waitUntilAnswering(.application)
        let images = try await images()
        let active = images.filter { $0["active"] as? Bool == true }
        XCTAssertEqual(active.count, 1, "one active image expected: \(images)\n\(logs)", file: file, line: line)
        XCTAssertEqual(active.first?["version"] as? String, version, "the running version: \(images)\n\(logs)", file: file, line: line)
        if let slot {
            XCTAssertEqual(active.first?["slot"] as? Int, slot, "the running image's slot: \(images)", file: file, line: line)
        }
        XCTAssertTrue(device.isRunning, "QEMU ended\n\(logs)", file: file, line: line)
    }

    /// QEMU's and the supervisor's output.
    var logs: String {
        "--- \(fixture.name) (persistent memory) log:\n\(device.log.suffix(4000))"
            + (bridges.map { "\n--- socat log:\n\($0.pty.log.suffix(1000))\n--- ser2net log:\n\($0.server.log.suffix(2000))" } ?? "")
    }

    /// Ends QEMU and its supervisor and removes the scratch folders.
    func stop() {
        bridges?.server.stop()
        bridges?.pty.stop()
        device.stop()
        try? FileManager.default.removeItem(at: device.scratch)
        try? FileManager.default.removeItem(at: scratch)
    }

    /// A step of a bootloader test failed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
