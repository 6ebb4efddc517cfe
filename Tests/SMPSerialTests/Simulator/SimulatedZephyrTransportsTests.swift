#if canImport(Glibc)
import Glibc
#endif
import SMP
import SMPSerial
@testable import SMPSimulator
import XCTest

/// The virtual device behaving like Zephyr's serial transports: receive line buffers that drop an
/// overrun, the raw UART transport, and the shell transport.
final class SimulatedZephyrTransportsTests: XCTestCase {
    private let impatient = SMPClientConfiguration(timeout: .milliseconds(400), retries: 0)
    /// An echo whose request takes 3 console lines of 127 bytes.
    private let threeLineText = String(repeating: "x", count: 250)
    private let stockUART = PTYSimulatorOptions(lineBuffers: .zephyrUART)

    func testAnUnpacedBurstLosesItsThirdLine() async throws {
        let link = try await PTYLink.start(simulator: stockUART, port: SerialPortOptions(pacing: .unpaced), client: impatient)
        XCTAssertEqual(link.transport.lineCount(forMessageOfSize: 8 + 5 + 250), 3, "header, map, key, text")
        await assertLost(link.client, echo: threeLineText)
        let statistics = await link.server.statistics
        // Each time the echo is sent (once, and again when the client finds it lost), its third
        // line finds both buffers taken; every other request arrives.
        XCTAssertGreaterThanOrEqual(statistics.linesOverrun, 1)
        XCTAssertEqual(statistics.linesOverrun, link.transport.statistics.messagesSent - statistics.framing.packets)
        XCTAssertEqual(statistics.linesTooLong, 0)
        let answer = try await link.client.send(OSEcho("two lines fit"))
        XCTAssertEqual(answer, "two lines fit")
        await link.stop()
    }

    func testAPacedClientLosesNothing() async throws {
        // Zephyr's default pacing (2 lines per 20 ms) with room for a loaded test machine, whose
        // scheduler may read the pseudo-terminal late: the device sees lines closer together.
        let paced = SerialPortOptions(pacing: LinePacing(burst: 2, gap: .milliseconds(80)))
        let link = try await PTYLink.start(simulator: stockUART, port: paced, client: impatient)
        for _ in 0..<3 {
            let answer = try await link.client.send(OSEcho(threeLineText))
            XCTAssertEqual(answer, threeLineText)
        }
        let statistics = await link.server.statistics
        XCTAssertEqual(statistics.droppedLines, 0)
        XCTAssertEqual(statistics.framing.packets, link.transport.statistics.messagesSent, "the parameters and 3 echoes")
        await link.stop()
    }

    func testALineLongerThanTheBufferIsDropped() async throws {
        let options = PTYSimulatorOptions(lineBuffers: .init(count: 2, size: 128))
        let link = try await PTYLink.start(simulator: options, port: SerialPortOptions(lineLength: 200), client: impatient)
        await assertLost(link.client, echo: String(repeating: "y", count: 120))
        let statistics = await link.server.statistics
        XCTAssertEqual(statistics.linesTooLong, 1)
        await link.stop()
    }

    func testRawFramingRoundTrips() async throws {
        let options = PTYSimulatorOptions(framing: .raw)
        let link = try await PTYLink.start(simulator: options, port: SerialPortOptions(framing: .raw), client: impatient)
        let answer = try await link.client.send(OSEcho("bare"))
        XCTAssertEqual(answer, "bare")
        // A request filling buf_size arrives (no length or CRC shares the buffer); its echo does
        // not fit the answer, and the device says so, as the serial_raw fixture does.
        let full = largestEchoText(fitting: PTYLink.zephyrSerialDevice.bufferSize)
        do {
            _ = try await link.client.send(OSEcho(full))
        } catch {
            guard case .device = error else { return XCTFail("\(error)") }
        }
        let statistics = await link.server.statistics
        XCTAssertEqual(statistics.framing.packets, link.transport.statistics.messagesSent)
        XCTAssertEqual(statistics.responses, statistics.framing.packets)
        XCTAssertEqual(statistics.bytesReceived, statistics.framing.lineBytes, "nothing around a raw message")
        XCTAssertEqual(link.transport.statistics.framing.consoleBytes, 0, "bare answers")
        await link.stop()
    }

    func testTheShellAnswersSMPBesideItsPromptAndWarnsOfAnOverrun() async throws {
        let options = PTYSimulatorOptions(framing: .shell, lineBuffers: .zephyrShell)
        let link = try await PTYLink.start(
            simulator: options, port: SerialPortOptions(framing: .shell, pacing: .unpaced), client: impatient)
        let answer = try await link.client.send(OSEcho("through the shell"))
        XCTAssertEqual(answer, "through the shell")
        // The prompt is printed as the host opens the port; opening flushes what the port holds,
        // so it is seen whole or not at all, and SMP lines are never echoed.
        let seen = link.transport.statistics.framing.consoleBytes
        XCTAssertTrue([0, SimulatedShell.banner.count].contains(seen), "console bytes beside the answer: \(seen)")
        await assertLost(link.client, echo: threeLineText)
        let overruns = await link.server.statistics.linesOverrun
        XCTAssertGreaterThanOrEqual(overruns, 1)
        XCTAssertGreaterThan(link.transport.statistics.framing.consoleBytes, seen + 60 * overruns, "a warning per lost line")
        await link.stop()
    }

    func testAShellThatPassesNothingToSMPIsNamed() async throws {
        let options = PTYSimulatorOptions(framing: .shell, lineBuffers: .zephyrShell)
        let link = try await PTYLink.start(
            faults: FaultInjection(drop: 1), simulator: options, port: SerialPortOptions(framing: .shell, pacing: .unpaced),
            client: impatient)
        await assertLost(link.client, echo: threeLineText)
        let diagnosis = try XCTUnwrap(link.transport.diagnosis())
        XCTAssertTrue(diagnosis.hasPrefix("only shell output came back"), diagnosis)
        await link.stop()
    }

    func testTheShellOnTheUARTEchoesAndRunsCommands() async throws {
        let server = PTYSimulatorServer(
            device: VirtualDevice(), linkPath: temporaryLinkPath(), options: PTYSimulatorOptions(framing: .shell))
        let port = open(try await server.start(), O_RDWR | O_NOCTTY)
        XCTAssertGreaterThanOrEqual(port, 0)
        defer { close(port) }
        var settings = termios()
        tcgetattr(port, &settings)
        cfmakeraw(&settings)
        tcsetattr(port, TCSANOW, &settings)
        let prompt = "\u{1B}[1;32muart:~$ \u{1B}[m"
        let boot = await readText(port, until: prompt)
        XCTAssertEqual(boot, "\u{1B}[m\r\n" + prompt, "the boot prompt")
        _ = Array("kernel version\r".utf8).withUnsafeBytes { write(port, $0.baseAddress, $0.count) }
        let answer = await readText(port, until: prompt)
        XCTAssertEqual(answer, "kernel version\r\nZephyr version 4.1.0\r\n" + prompt, "echoed, run, prompt again")
        let commands = await server.statistics.shellCommands
        XCTAssertEqual(commands, 1)
        await server.stop()
    }

    /// What `port` delivers until it ends with `end` (or 2 s pass).
    private func readText(_ port: Int32, until end: String) async -> String {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(2)
        while !String(decoding: received, as: UTF8.self).hasSuffix(end) && ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: port, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else {
                try? await Task.sleep(for: .milliseconds(10))
                continue
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(port, &buffer, buffer.count)
            if count > 0 { received += buffer.prefix(count) }
        }
        return String(decoding: received, as: UTF8.self)
    }

    private func assertLost(_ client: SMPClient, echo text: String, file: StaticString = #filePath, line: UInt = #line) async {
        do {
            _ = try await client.send(OSEcho(text))
            XCTFail("expected the request to be lost", file: file, line: line)
        } catch {
            guard case .timeout = error else { return XCTFail("\(error)", file: file, line: line) }
        }
    }
}
