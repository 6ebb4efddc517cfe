@testable import SMPSerial
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// Raw framing is paced in pieces where nothing else paces it: a TCP serial server (QEMU, ser2net)
/// has no line rate, and MCUboot's raw recovery keeps only 8 fragments (one per UART interrupt,
/// a byte each under QEMU) until its loop takes them; the rest, and the request, are lost. Over
/// `tcp://` raw messages start at the line rate of the baud rate; a loss halves the speed, down to
/// a floor. A tty starts unpaced (its UART paces the bytes) and slows down the same way.
final class RawPacingTests: XCTestCase {
    func testATCPServerStartsAtTheLineRateAndATTYUnpaced() {
        XCTAssertEqual(SerialTransport.rawPacing(path: "tcp://127.0.0.1:5000", baudRate: 115_200), LinePacing(burst: 1, gap: .microseconds(347)))
        XCTAssertEqual(SerialTransport.rawPacing(path: "tcp://127.0.0.1:5000", baudRate: 9600), LinePacing(burst: 1, gap: .microseconds(4166)))
        XCTAssertEqual(SerialTransport.rawPacing(path: "/dev/ttyACM0", baudRate: 115_200), .unpaced)
    }

    func testRawMessagesCrossATCPServerInPiecesAndLossesSlowThemToAFloor() async throws {
        let link = try await SocatTCPLink.start(simulator: PTYSimulatorOptions(framing: .raw), port: SerialPortOptions(framing: .raw))
        let transport = link.transport
        XCTAssertEqual(transport.linePacing, LinePacing(burst: 1, gap: .microseconds(347)))
        XCTAssertTrue(transport.linePacingIsSettled, "raw pacing follows from the baud rate: nothing to learn")
        XCTAssertEqual(transport.lineCount(forMessageOfSize: 380), 95)
        // The pieces make up the message again on the other side.
        let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(2)))
        let text = largestEchoText(fitting: 380)
        let answer = try await client.send(OSEcho(text))
        XCTAssertEqual(answer, text)
        // Each loss halves the speed, down to a piece per eight line-rate piece times.
        XCTAssertEqual(transport.slowDownAfterLoss(), "writing raw messages more slowly (4 bytes every 694 µs)")
        XCTAssertEqual(transport.slowDownAfterLoss(), "writing raw messages more slowly (4 bytes every 1388 µs)")
        XCTAssertEqual(transport.slowDownAfterLoss(), "writing raw messages more slowly (4 bytes every 2776 µs)")
        XCTAssertNil(transport.slowDownAfterLoss(), "the floor: no slower, and nothing more to say")
        XCTAssertEqual(transport.linePacing, LinePacing(burst: 1, gap: .microseconds(2776)))
        let slow = try await client.send(OSEcho("still answered"))
        XCTAssertEqual(slow, "still answered")
        await client.close()
        await link.stop()
    }

    func testAGivenPacingIsKeptOverTCP() async throws {
        let link = try await SocatTCPLink.start(
            simulator: PTYSimulatorOptions(framing: .raw), port: SerialPortOptions(framing: .raw, pacing: .unpaced))
        let transport = link.transport
        XCTAssertEqual(transport.linePacing, .unpaced)
        XCTAssertEqual(transport.lineCount(forMessageOfSize: 380), 1, "unpaced: the message goes out whole")
        // A slow pacing given with ?burst= and ?gap= stays: a loss never makes it faster.
        transport.setLinePacing(LinePacing(burst: 2, gap: .milliseconds(20)), settled: true)
        XCTAssertNil(transport.slowDownAfterLoss())
        XCTAssertEqual(transport.linePacing, LinePacing(burst: 2, gap: .milliseconds(20)))
        transport.setLinePacing(LinePacing(burst: 4, gap: .milliseconds(1)), settled: true)
        XCTAssertEqual(transport.slowDownAfterLoss(), "writing raw messages more slowly (4 bytes every 500 µs)")
        transport.setLinePacing(.unpaced, settled: true)
        let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(2)))
        let answer = try await client.send(OSEcho("whole"))
        XCTAssertEqual(answer, "whole")
        await client.close()
        await link.stop()
    }

    func testATTYStartsUnpacedAndALossPacesItAtTheLineRate() async throws {
        let link = try await PTYLink.start(simulator: PTYSimulatorOptions(framing: .raw), port: SerialPortOptions(framing: .raw))
        XCTAssertEqual(link.transport.linePacing, .unpaced)
        XCTAssertEqual(link.transport.slowDownAfterLoss(), "writing raw messages more slowly (4 bytes every 347 µs)")
        let answer = try await link.client.send(OSEcho("paced now"))
        XCTAssertEqual(answer, "paced now")
        await link.stop()
    }

    func testARequestTheRawRecoveryDropsGetsThroughPaced() async throws {
        // The virtual device keeps 32 bytes of a burst, as MCUboot's raw recovery keeps what its
        // fragment buffers hold: a 300-byte echo written whole loses its tail. The client waits
        // for the device to drop the partial message, writes at the line rate and is answered.
        let link = try await PTYLink.start(
            simulator: PTYSimulatorOptions(framing: .raw, rawBurstLimit: 32), port: SerialPortOptions(framing: .raw),
            client: SMPClientConfiguration(timeout: .seconds(1), retries: 4))
        XCTAssertEqual(link.transport.linePacing, .unpaced)
        let text = String(repeating: "r", count: 300)
        let answer = try await link.client.send(OSEcho(text))
        XCTAssertEqual(answer, text)
        XCTAssertEqual(link.transport.linePacing.burst, 1, "the loss paced the link")
        let statistics = await link.server.statistics
        XCTAssertGreaterThan(statistics.rawBytesOverrun, 0, "the first copy was cut short")
        // A loaded machine can leave the simulator unscheduled long enough for paced pieces to pile
        // up into one read beyond the limit: a paced copy may be cut too, and the next is slower.
        XCTAssertGreaterThanOrEqual(statistics.rawPartialsExpired, 1, "its start was dropped before the resend")
        XCTAssertEqual(statistics.responses, 2, "the MCUmgr parameters the client reads first, and the echo: cut copies got none")
        await link.stop()
    }

    func testConsoleLinesStillSlowDownByLines() async throws {
        let link = try await PTYLink.start(configuration: PTYLink.zephyrSerialDevice, port: SerialPortOptions(pacing: .zephyrDefault))
        XCTAssertEqual(link.transport.slowDownAfterLoss(), "writing console lines more slowly (1 line per 20 ms)")
        await link.stop()
    }
}
