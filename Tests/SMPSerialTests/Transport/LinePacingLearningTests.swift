import SMP
import SMPSerial
import SMPSimulator
import XCTest

/// With echo bursts (before a single large request, and before a transfer to a device with one
/// SMP buffer; other transfers learn from their first chunk, `TransferLinePacingTests`) the client
/// learns how many console lines the device takes back to back: against a virtual device with
/// Zephyr's receive line buffers it finds a burst the buffers hold, and a device without that
/// limit is written to without pauses.
final class LinePacingLearningTests: XCTestCase {
    /// A Zephyr device with 1024-byte SMP buffers (12-line requests).
    private let device = VirtualDeviceConfiguration(bufferSize: 1024, bufferCount: 4)

    private func learn(
        lineBuffers: PTYSimulatorOptions.LineBuffers?, device: VirtualDeviceConfiguration? = nil
    ) async throws -> (LinePacing, PTYLink) {
        let link = try await PTYLink.start(
            configuration: device ?? self.device, simulator: PTYSimulatorOptions(lineBuffers: lineBuffers), port: SerialPortOptions())
        XCTAssertFalse(link.transport.linePacingIsSettled)
        await link.client.tuneLinePacing()
        XCTAssertTrue(link.transport.linePacingIsSettled)
        return (link.transport.linePacing, link)
    }

    func testTwoLineBuffersKeepTheDefaultPacing() async throws {
        let (pacing, link) = try await learn(lineBuffers: .init(count: 2))
        XCTAssertEqual(pacing, .zephyrDefault)
        // And with it a request filling the buffer arrives.
        let text = largestEchoText(fitting: 1020)
        let answer = try await link.client.send(OSEcho(text))
        XCTAssertEqual(answer, text)
        await link.stop()
    }

    func testManyLineBuffersAllowLargerBursts() async throws {
        let (pacing, link) = try await learn(lineBuffers: .init(count: 16))
        XCTAssertGreaterThanOrEqual(pacing.burst, 8)
        XCTAssertLessThanOrEqual(pacing.burst, 16)
        XCTAssertFalse(pacing.isUnpaced)
        let dropped = await link.server.statistics.droppedLines
        XCTAssertGreaterThan(dropped, 0, "the larger bursts tried were lost")
        // A window of full requests then goes through.
        let text = largestEchoText(fitting: 1020)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 { group.addTask { _ = try await link.client.send(OSEcho(text)) } }
            try await group.waitForAll()
        }
        let timeouts = await link.client.statistics.timeouts
        XCTAssertEqual(timeouts, 0, "nothing waited for a timeout")
        await link.stop()
    }

    func testAnUnlimitedDeviceIsNotPaced() async throws {
        let (pacing, link) = try await learn(lineBuffers: nil)
        XCTAssertTrue(pacing.isUnpaced)
        await link.stop()
    }

    /// 2048-byte buffers: a window of three full requests is 66 lines, more than the largest
    /// learning burst (64); that burst arriving whole means no pacing either.
    func testAnUnlimitedDeviceWithLargeBuffersIsNotPaced() async throws {
        let (pacing, link) = try await learn(lineBuffers: nil, device: VirtualDeviceConfiguration(bufferSize: 2048, bufferCount: 4))
        XCTAssertTrue(pacing.isUnpaced, "learned \(pacing)")
        await link.stop()
    }

    func testAGivenPacingIsNotLearned() async throws {
        let given = LinePacing(burst: 3, gap: .milliseconds(30))
        let link = try await PTYLink.start(configuration: device, port: SerialPortOptions(pacing: given))
        XCTAssertTrue(link.transport.linePacingIsSettled)
        await link.client.tuneLinePacing()
        XCTAssertEqual(link.transport.linePacing, given)
        let sent = link.transport.statistics.messagesSent
        XCTAssertEqual(sent, 0, "nothing was sent to learn it")
        await link.stop()
    }
}
