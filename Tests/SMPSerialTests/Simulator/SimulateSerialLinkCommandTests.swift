import Foundation
import SMP
import SMPSerial
import SMPTestSupport
import XCTest

/// The real `smpctl simulate --serial-link` process, talked to through the link it prints.
final class SimulateSerialLinkCommandTests: XCTestCase {
    func testServesOnTheLinkAndStopsCleanly() async throws {
        let link = temporaryLinkPath()
        let simulator = try SimulatorProcess(["simulate", "--serial-link", link, "--baud", "460800", "--log-lines", "20", "--json"])
        let announcement = try await simulator.firstLine()
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(announcement.utf8)) as? [String: Any])
        XCTAssertEqual(document["listening"] as? String, "serial:\(link)")
        XCTAssertEqual(document["serial"] as? String, link)
        XCTAssertEqual((document["pty"] as? String)?.hasPrefix("/dev/pts/"), true)
        XCTAssertNil(document["port"], "no UDP unless asked for")

        let transport = try await SerialTransport.open(path: link)
        let client = SMPClient(transport: transport)
        let answer = try await client.send(OSEcho("through smpctl simulate"))
        XCTAssertEqual(answer, "through smpctl simulate")
        let parameters = try await client.send(OSParameters())
        XCTAssertEqual(parameters.bufferSize, 384, "Zephyr's default without UDP")
        await client.close()

        let status = await simulator.interrupt()
        XCTAssertEqual(status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: link), "the link is removed on exit")
    }

    func testUDPAndSerialTogether() async throws {
        let link = temporaryLinkPath()
        let simulator = try SimulatorProcess(["simulate", "--udp", "127.0.0.1:0", "--serial-link", link, "--crc-errors", "0.2"])
        let announcement = try await simulator.firstLine()
        XCTAssertTrue(announcement.hasPrefix("virtual SMP device listening on udp:127.0.0.1:"), announcement)
        XCTAssertTrue(announcement.contains(" and serial:\(link) (zephyr, buf_size 2048, buf_count 4)"), announcement)
        let transport = try await SerialTransport.open(path: link)
        let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .milliseconds(200), retries: 20))
        for index in 0..<10 { _ = try await client.send(OSEcho("with CRC errors \(index)")) }
        XCTAssertGreaterThan(transport.statistics.framing.crcErrors, 0)
        await client.close()
        let status = await simulator.interrupt()
        XCTAssertEqual(status, 0)
    }

    func testSerialOptionsNeedALink() async throws {
        let simulator = try SimulatorProcess(["simulate", "--baud", "115200"])
        let status = await simulator.interrupt(after: .seconds(10))
        XCTAssertEqual(status, 64)
        XCTAssertTrue(simulator.errors.contains("--baud applies to the serial link: give --serial-link PATH too"), simulator.errors)
    }

    func testLineBuffersAreAnnouncedAndChecked() async throws {
        let link = temporaryLinkPath()
        let simulator = try SimulatorProcess(["simulate", "--serial-link", link, "--line-buffers", "2", "--line-drain-ms", "15"])
        let announcement = try await simulator.firstLine()
        XCTAssertTrue(announcement.contains("serial:\(link)"), announcement)
        let status = await simulator.interrupt()
        XCTAssertEqual(status, 0)
        XCTAssertTrue(
            (try String(contentsOfFile: simulator.outputPath, encoding: .utf8)).contains(
                "(unpaced, 2 line buffers of 128 bytes, freed 15 ms after each line)"))

        for (arguments, message) in [
            (["--line-buffers", "2"], "--line-buffers applies to the serial link: give --serial-link PATH too"),
            (["--serial-link", link, "--framing", "raw", "--line-buffers", "2"], "--line-buffers, --line-buffer-size and --crc-errors apply to console lines"),
            (["--serial-link", link, "--line-buffers", "0"], "--line-buffers takes a whole number of buffers from 1 to 64, not 0"),
            (["--serial-link", link, "--line-drain-ms", "5"], "give --line-buffers N too"),
        ] {
            let refused = try SimulatorProcess(["simulate"] + arguments)
            let code = await refused.interrupt(after: .seconds(10))
            XCTAssertEqual(code, 64, "\(arguments)")
            XCTAssertTrue(refused.errors.contains(message), refused.errors)
        }
    }

    func testARawBurstLimitDropsWhatComesWholeAndTheClientPacesThrough() async throws {
        let link = temporaryLinkPath()
        let simulator = try SimulatorProcess(["simulate", "--serial-link", link, "--framing", "raw", "--raw-burst-limit", "32"])
        let announcement = try await simulator.firstLine()
        XCTAssertTrue(announcement.contains("serial:\(link)"), announcement)
        // As on MCUboot's raw recovery: a 300-byte request written whole loses its tail; the
        // client waits for the device to drop the start, paces the resend and is answered.
        let transport = try await SerialTransport.open(path: link, options: SerialPortOptions(framing: .raw))
        let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(1), retries: 4))
        let text = String(repeating: "m", count: 300)
        let answer = try await client.send(OSEcho(text))
        XCTAssertEqual(answer, text)
        XCTAssertEqual(transport.linePacing.burst, 1, "the loss paced the link")
        await client.close()
        let status = await simulator.interrupt()
        XCTAssertEqual(status, 0)
        XCTAssertTrue(
            (try String(contentsOfFile: simulator.outputPath, encoding: .utf8)).contains("(unpaced, raw framing, bursts beyond 32 bytes dropped)"))
        for (arguments, message) in [
            (["--serial-link", link, "--raw-burst-limit", "8"], "--raw-burst-limit applies to bare messages: give --framing raw too"),
            (["--serial-link", link, "--framing", "raw", "--raw-burst-limit", "0"], "--raw-burst-limit takes"),
        ] {
            let refused = try SimulatorProcess(["simulate"] + arguments)
            let code = await refused.interrupt(after: .seconds(10))
            XCTAssertEqual(code, 64, "\(arguments)")
            XCTAssertTrue(refused.errors.contains(message), refused.errors)
        }
    }

    func testRefusesToReplaceAFile() async throws {
        let file = temporaryLinkPath("file")
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("precious".utf8)))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let simulator = try SimulatorProcess(["simulate", "--serial-link", file])
        let status = await simulator.interrupt(after: .seconds(10))
        XCTAssertEqual(status, 69)
        XCTAssertTrue(simulator.errors.contains("exists and is not a symbolic link"), simulator.errors)
        XCTAssertEqual(FileManager.default.contents(atPath: file), Data("precious".utf8))
    }
}

private struct SimulatorSilent: Error, CustomStringConvertible {
    var errors: String
    var description: String { "smpctl simulate printed nothing; stderr: \(errors)" }
}

/// `smpctl` running in the background, its output going to files.
private final class SimulatorProcess {
    private let process = Process()
    private let output = temporaryLinkPath("stdout")
    /// Where standard output goes.
    var outputPath: String { output }
    private let errorOutput = temporaryLinkPath("stderr")

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: try ExternalTool.builtProduct("smpctl"))
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: errorOutput, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: output)
        process.standardError = FileHandle(forWritingAtPath: errorOutput)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(atPath: output)
        try? FileManager.default.removeItem(atPath: errorOutput)
    }

    var errors: String { (try? String(contentsOfFile: errorOutput, encoding: .utf8)) ?? "" }

    /// The first complete line of standard output.
    func firstLine(timeout: Duration = .seconds(20)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            if let end = text.firstIndex(of: "\n") { return String(text[..<end]) }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw SimulatorSilent(errors: errors)
    }

    /// Sends Ctrl-C (unless it already ended) and returns the exit status.
    func interrupt(after wait: Duration = .zero) async -> Int32 {
        let deadline = ContinuousClock.now + wait
        while process.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning { process.interrupt() }
        let stop = ContinuousClock.now + .seconds(10)
        while process.isRunning && ContinuousClock.now < stop { try? await Task.sleep(for: .milliseconds(10)) }
        return process.isRunning ? -1 : process.terminationStatus
    }
}

// MARK: MCUboot serial recovery

/// `smpctl simulate --bootloader-recovery`: the real process starts in MCUboot serial recovery
/// and an `os reset` boots the application.
extension SimulateSerialLinkCommandTests {
    func testStartsInRecoveryAndResetsIntoTheApplication() async throws {
        let link = temporaryLinkPath()
        let simulator = try SimulatorProcess(["simulate", "--serial-link", link, "--bootloader-recovery", "--bootloader-mode", "ram-load"])
        let announcement = try await simulator.firstLine()
        XCTAssertTrue(announcement.contains("MCUboot serial recovery (running)"), announcement)

        let transport = try await SerialTransport.open(path: link)
        let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(2), retries: 0))
        let recovery = try await client.send(OSParameters())
        XCTAssertEqual(recovery.bufferSize, 1024, "MCUboot's receive buffer")
        XCTAssertEqual(recovery.bufferCount, 1)
        do {
            _ = try await client.send(OSEcho("no echo in recovery"))
            XCTFail("recovery answered echo")
        } catch {
            guard case .device = error else { return XCTFail("\(error)") }
        }
        _ = try await client.send(OSReset())
        try await Task.sleep(for: .milliseconds(400))
        let application = try await client.send(OSParameters())
        XCTAssertEqual(application.bufferSize, 384, "the application's buffer after the reset")
        let echo = try await client.send(OSEcho("back in the application"))
        XCTAssertEqual(echo, "back in the application")
        await client.close()
        let status = await simulator.interrupt()
        XCTAssertEqual(status, 0)
    }

    func testRecoveryOptionsNeedRecovery() async throws {
        let simulator = try SimulatorProcess(["simulate", "--recovery-buf-size", "2048"])
        let status = await simulator.interrupt(after: .seconds(10))
        XCTAssertEqual(status, 64)
        XCTAssertTrue(simulator.errors.contains("--recovery-buf-size shapes MCUboot serial recovery"), simulator.errors)
    }
}
