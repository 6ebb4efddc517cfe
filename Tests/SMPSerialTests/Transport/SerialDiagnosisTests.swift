import SMP
@testable import SMPSerial
import SMPSimulator
import SMPTestSupport
import XCTest

/// The sentence a timed-out request over serial gets: echo, wrong baud rate, console only,
/// silence, a noisy line.
final class SerialDiagnosisTests: XCTestCase {
    private let impatient = SMPClientConfiguration(timeout: .milliseconds(200), retries: 0)

    func testConsoleEchoIsRecognised() async throws {
        let echoing = ScriptedSerialDevice { request in [request] }  // sends our own request back
        let server = PTYSimulatorServer(handler: echoing, linkPath: temporaryLinkPath())
        let transport = try await SerialTransport.open(path: try await server.start())
        let client = SMPClient(transport: transport, configuration: impatient)
        await assertTimesOut(client)
        XCTAssertEqual(transport.statistics.echoedRequests, 1)
        let diagnosis = try XCTUnwrap(transport.diagnosis())
        XCTAssertTrue(diagnosis.contains("console echo is on"), diagnosis)
        await client.close()
        await server.stop()
    }

    func testSilenceIsRecognised() async throws {
        let server = PTYSimulatorServer(handler: ScriptedSerialDevice(), linkPath: temporaryLinkPath())
        let transport = try await SerialTransport.open(path: try await server.start())
        XCTAssertNil(transport.diagnosis(), "nothing sent, nothing to say")
        let client = SMPClient(transport: transport, configuration: impatient)
        await assertTimesOut(client)
        let diagnosis = try XCTUnwrap(transport.diagnosis())
        XCTAssertTrue(diagnosis.hasPrefix("nothing at all came back from \(transport.currentPath)"), diagnosis)
        await client.close()
        await server.stop()
    }

    func testGarbageSuggestsAWrongBaudRate() async throws {
        let terminal = try TestTerminal()
        let transport = try await SerialTransport.open(path: terminal.slavePath)
        var random = SplitMix64(seed: 3)
        // What a UART at the wrong rate makes of console text: bytes of every value, few lines.
        terminal.write((0..<400).map { _ in UInt8.random(in: 0x80...0xFF, using: &random) })
        await waitUntil { transport.statistics.framing.bytes >= 400 }
        let client = SMPClient(transport: transport, configuration: impatient)
        await assertTimesOut(client)
        let diagnosis = try XCTUnwrap(transport.diagnosis())
        XCTAssertTrue(diagnosis.contains("the baud rate is probably wrong; 115200 is in use"), diagnosis)
        await client.close()
    }

    func testConsoleTextWithoutSMPIsRecognised() async throws {
        let terminal = try TestTerminal()
        let transport = try await SerialTransport.open(path: terminal.slavePath)
        terminal.write(Array("*** Booting Zephyr OS build v3.7.0 ***\r\n[00:00:00.010,000] <inf> main: started\r\n".utf8))
        await waitUntil { transport.statistics.framing.bytes > 60 }
        let diagnosis = try XCTUnwrap(transport.diagnosis())
        XCTAssertTrue(diagnosis.hasPrefix("only console text came back"), diagnosis)
        XCTAssertTrue(diagnosis.contains("CONFIG_MCUMGR_TRANSPORT_UART"), diagnosis)
        await transport.close()
    }

    func testAShellPromptWithoutSMPNamesTheShellTransport() async throws {
        let terminal = try TestTerminal()
        let transport = try await SerialTransport.open(path: terminal.slavePath)
        // The prompt in colour, split across two writes, as Zephyr's shell draws it.
        let first = Array("*** Booting Zephyr OS build v4.4.0 ***\r\n\u{1B}[1;32muart:~".utf8)
        let second = Array("$ \u{1B}[m".utf8)
        terminal.write(first)
        terminal.write(second)
        // Both writes must have arrived: the prompt is only complete with the second.
        await waitUntil { transport.statistics.framing.bytes >= first.count + second.count }
        XCTAssertTrue(transport.statistics.shellPromptSeen)
        XCTAssertEqual(transport.statistics.unprintableBytes, 0, "colour codes are text")
        let diagnosis = try XCTUnwrap(transport.diagnosis())
        XCTAssertTrue(diagnosis.hasPrefix("only shell output came back"), diagnosis)
        XCTAssertTrue(diagnosis.contains("CONFIG_MCUMGR_TRANSPORT_SHELL"), diagnosis)
        await transport.close()
    }

    func testADamagedLineIsRecognised() async throws {
        let link = try await PTYLink.start(
            simulator: PTYSimulatorOptions(crcErrors: 0.6, seed: 2), client: SMPClientConfiguration(timeout: .milliseconds(100), retries: 30))
        for _ in 0..<6 { _ = try await link.client.send(OSEcho("through the noise")) }
        let diagnosis = try XCTUnwrap(link.transport.diagnosis())
        XCTAssertTrue(diagnosis.hasPrefix("many SMP packets from \(link.path) arrived damaged ("), diagnosis)
        XCTAssertTrue(diagnosis.contains("CRC error"), diagnosis)
        await link.stop()
    }

    func testAHealthyLinkHasNothingToSay() async throws {
        let link = try await PTYLink.start(simulator: PTYSimulatorOptions(logLinesPerSecond: 100))
        for _ in 0..<5 { _ = try await link.client.send(OSEcho("fine")) }
        XCTAssertNil(link.transport.diagnosis())
        await link.stop()
    }

    func testTheErrorCountsInWords() {
        var framing = SerialFrameDecoder.Statistics()
        XCTAssertEqual(SerialLinkDiagnosis.describe(framing), "no framing errors")
        framing.crcErrors = 1
        framing.base64Errors = 2
        XCTAssertEqual(SerialLinkDiagnosis.describe(framing), "1 CRC error, 2 invalid base64 lines")
    }

    private func assertTimesOut(_ client: SMPClient, file: StaticString = #filePath, line: UInt = #line) async {
        do {
            _ = try await client.send(OSEcho("anyone there?"))
            XCTFail("expected a timeout", file: file, line: line)
        } catch {
            guard case .timeout = error else { return XCTFail("\(error)", file: file, line: line) }
        }
    }
}
