import SMP
import SMPSerial
import SMPSimulator
import XCTest

/// Console output sharing the line, noise and CRC errors: what a real UART throws at the transport.
final class SerialLineDamageTests: XCTestCase {
    /// Echo texts long enough to need two or three lines.
    private let texts = (0..<40).map { String(repeating: "\($0 % 10)", count: 100 + $0 * 5) }

    func testLogLinesBetweenAndInsideFramesAreSkipped() async throws {
        let link = try await PTYLink.start(
            simulator: PTYSimulatorOptions(logLinesPerSecond: 200, logLinesInsideFrames: true))
        for text in texts {
            let answer = try await link.client.send(OSEcho(text))
            XCTAssertEqual(answer, text)
        }
        let server = await link.server.statistics
        XCTAssertGreaterThanOrEqual(server.logLines, texts.count, "one inside every multi-line answer, and more")
        let framing = link.transport.statistics.framing
        XCTAssertGreaterThanOrEqual(framing.packets, texts.count + 1, "the echoes, and the MCUmgr parameters read before the first")
        XCTAssertEqual(framing.packets, link.transport.statistics.messagesSent, "every message answered (probes included)")
        XCTAssertEqual(framing.droppedPackets, 0)
        XCTAssertGreaterThan(framing.consoleBytes, texts.count * 40, "the log lines were skipped as console text")
        let retransmissions = await link.client.statistics.retransmissions
        XCTAssertEqual(retransmissions, 0)
        await link.stop()
    }

    func testCRCErrorsAreDetectedAndRetriedAway() async throws {
        let link = try await PTYLink.start(
            simulator: PTYSimulatorOptions(crcErrors: 0.3, seed: 11),
            client: SMPClientConfiguration(timeout: .milliseconds(100), retries: 20))
        for text in texts {
            let answer = try await link.client.send(OSEcho(text))
            XCTAssertEqual(answer, text)
        }
        let injected = await link.server.statistics.crcErrors
        XCTAssertGreaterThan(injected, 3)
        let framing = link.transport.statistics.framing
        XCTAssertEqual(framing.crcErrors, injected, "every flipped bit is caught by the CRC")
        XCTAssertEqual(framing.base64Errors + framing.lengthErrors, 0, "and nothing else went wrong")
        let retransmissions = await link.client.statistics.retransmissions
        XCTAssertGreaterThanOrEqual(retransmissions, injected)
        await link.stop()
    }

    func testLineNoiseIsRecoveredByRetries() async throws {
        let link = try await PTYLink.start(
            simulator: PTYSimulatorOptions(logLinesPerSecond: 50, noise: 0.15, seed: 5),
            client: SMPClientConfiguration(timeout: .milliseconds(100), retries: 20))
        for text in texts.prefix(20) {
            let answer = try await link.client.send(OSEcho(text))
            XCTAssertEqual(answer, text)
        }
        let bursts = await link.server.statistics.noiseBursts
        XCTAssertGreaterThan(bursts, 3)
        let framing = link.transport.statistics.framing
        XCTAssertGreaterThan(framing.droppedPackets, 0, "some bursts landed inside SMP lines")
        XCTAssertGreaterThan(link.transport.statistics.unprintableBytes, 0)
        await link.stop()
    }
}
