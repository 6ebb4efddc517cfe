import SMP
import SMPSerial
import SMPSimulator
import SMPTestSupport
import Synchronization
import XCTest

/// A transfer learns the line pacing from its own first chunk (docs/serial.md, "Line pacing"):
/// no echo precedes it. The chunk goes alone, as one burst; answered, that burst is the
/// pacing; lost, the echo that follows a request waiting alone shows it, and the chunk goes again
/// more slowly. Against a virtual device with Zephyr's receive line buffers on a real pty.
final class TransferLinePacingTests: XCTestCase {
    private let remote = "/lfs1/paced.bin"

    /// 1024-byte SMP buffers, four of them: a full chunk is 12 console lines.
    private let device = VirtualDeviceConfiguration(bufferSize: 1024, bufferCount: 4)

    private var content: [UInt8] {
        var generator = SplitMix64(seed: 0x2929)
        return (0..<8000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    /// Puts `content` through a link whose pacing is not known, with `lineBuffers`; the requests
    /// the device handled and the upload's result.
    private func put(
        lineBuffers: PTYSimulatorOptions.LineBuffers, pacingLearned: (@Sendable (LinePacing) -> Void)? = nil
    ) async throws -> (link: PTYLink, requests: Int, result: FileSystemUpload.Result) {
        let link = try await PTYLink.start(
            configuration: device, simulator: PTYSimulatorOptions(lineBuffers: lineBuffers), port: SerialPortOptions(), pacingLearned: pacingLearned)
        XCTAssertFalse(link.transport.linePacingIsSettled)
        let before = await link.device.statistics.requests
        let result = try await FileSystemUpload(client: link.client, name: remote, state: .missing).upload(from: content)
        let requests = await link.device.statistics.requests - before
        let stored = await (link.device.group(.fileSystem) as? FileSystemGroup)?.files[remote]
        XCTAssertEqual(stored, content)
        XCTAssertTrue(link.transport.linePacingIsSettled)
        return (link, requests, result)
    }

    /// A device that takes a whole chunk back to back: the first chunk proves it, and that burst
    /// becomes the pacing. The device handled the parameters and the chunks, nothing else.
    func testAChunkTheDeviceTakesWholeSetsThePacing() async throws {
        let (link, requests, result) = try await put(lineBuffers: .init(count: 16))
        XCTAssertEqual(requests, result.upload.progress.chunksSent + 1, "the parameters and the chunks: no echo")
        let chunkLines = link.transport.lineCount(forMessageOfSize: 1020)
        XCTAssertEqual(link.transport.linePacing, LinePacing(burst: chunkLines, gap: LinePacing.zephyrDefault.gap))
        let dropped = await link.server.statistics.droppedLines
        XCTAssertEqual(dropped, 0)
        let lost = await link.client.statistics.lost
        XCTAssertEqual(lost, 0)
        await link.stop()
    }

    /// Zephyr's stock two line buffers: the first chunk, written back to back, is lost; an echo
    /// shows it, well before its timeout, and the chunk goes again at half the burst, and so on
    /// down to the pacing in force before (Zephyr's default, which the buffers hold): 12, 6, 3,
    /// then 2 lines, not 1. Three lines get through when the device empties a buffer before the
    /// third arrives (it reads the pseudo-terminal as fast as the machine lets it), and the
    /// pacing then stays at 3. The rest of the upload goes at that pacing (a loss under a
    /// machine's load may still slow it down further, as any loss does).
    func testALostFirstChunkSlowsThePacingDownAndTheUploadGoesOn() async throws {
        let learned = Mutex<[LinePacing]>([])
        let (link, requests, result) = try await put(lineBuffers: .init(count: 2)) { pacing in learned.withLock { $0.append(pacing) } }
        let settled = try XCTUnwrap(learned.withLock { $0.first }, "the first chunk settled no pacing")
        XCTAssertEqual(settled.gap, LinePacing.zephyrDefault.gap)
        XCTAssertTrue((2...3).contains(settled.burst), "the pacing the first chunk settled: \(settled)")
        XCTAssertLessThanOrEqual(link.transport.linePacing.burst, settled.burst)
        let lost = await link.client.statistics.lost
        XCTAssertGreaterThanOrEqual(lost, 2, "12 and 6 lines were lost")
        // The trial losses were shown by echoes, at least one (how many depends on when the
        // device empties its two line buffers); the lost chunks never reached the device.
        let echoes = requests - result.upload.progress.chunksSent - 1
        XCTAssertGreaterThanOrEqual(echoes, 1)
        XCTAssertLessThanOrEqual(echoes, lost)
        let timeouts = await link.client.statistics.timeouts
        XCTAssertEqual(timeouts, 0, "no loss waited for a timeout")
        let dropped = await link.server.statistics.droppedLines
        XCTAssertGreaterThan(dropped, 0)
        await link.stop()
    }

    /// A resumed upload has no first chunk: its next chunk goes alone to learn the pacing, and
    /// the window opens once it is answered.
    func testAResumedUploadLearnsFromItsNextChunk() async throws {
        let configuration = VirtualDeviceConfiguration(
            bufferSize: 1024, bufferCount: 4, fileSystem: SimulatedFileSystemConfiguration(files: [remote: Array(content.prefix(3000))]))
        let learned = Mutex<[LinePacing]>([])
        let link = try await PTYLink.start(
            configuration: configuration, simulator: PTYSimulatorOptions(lineBuffers: .init(count: 2)), port: SerialPortOptions(),
            pacingLearned: { pacing in learned.withLock { $0.append(pacing) } })
        let result = try await FileSystemUpload(client: link.client, name: remote).upload(from: content)
        XCTAssertEqual(result.upload.progress.resumedFrom, 3000)
        XCTAssertEqual(result.verification?.matches, true)
        await assertZephyrDefaultLearnedWithoutTimeouts(link, learned: learned.withLock { $0 })
    }

    /// A device with a single SMP buffer (MCUboot's serial recovery) gets no echo after a waiting
    /// request, so its first chunk is not the trial: echo bursts learn the pacing before the
    /// transfer, and nothing waits for a timeout.
    func testASingleBufferDeviceLearnsWithEchoesFirst() async throws {
        let configuration = VirtualDeviceConfiguration(bufferSize: 1024, bufferCount: 1)
        let learned = Mutex<[LinePacing]>([])
        let link = try await PTYLink.start(
            configuration: configuration, simulator: PTYSimulatorOptions(lineBuffers: .init(count: 2)), port: SerialPortOptions(),
            pacingLearned: { pacing in learned.withLock { $0.append(pacing) } })
        _ = try await FileSystemUpload(client: link.client, name: remote, state: .missing).upload(from: content)
        await assertZephyrDefaultLearnedWithoutTimeouts(link, learned: learned.withLock { $0 })
    }

    /// About Zephyr's default pacing was the first one settled on `link` (`learned`, as the transport
    /// told them; a loss under a machine's load may slow it down further later, as any loss
    /// does), and no loss waited for a timeout; then stops the link.
    private func assertZephyrDefaultLearnedWithoutTimeouts(
        _ link: PTYLink, learned: [LinePacing], file: StaticString = #filePath, line: UInt = #line
    ) async {
        // Two line buffers take 2 lines back to back, and a third when the device reads one in time.
        let first = learned.first ?? .unpaced
        XCTAssertTrue((2...3).contains(first.burst) && first.gap == LinePacing.zephyrDefault.gap, "the pacing settled first: \(first)", file: file, line: line)
        XCTAssertLessThanOrEqual(link.transport.linePacing.burst, LinePacing.zephyrDefault.burst, file: file, line: line)
        XCTAssertTrue(link.transport.linePacingIsSettled, file: file, line: line)
        let timeouts = await link.client.statistics.timeouts
        XCTAssertEqual(timeouts, 0, "no loss waited for a timeout", file: file, line: line)
        await link.stop()
    }

    /// A transfer that fails before its trial chunk is answered (the device refuses the image)
    /// proved no burst: the pacing in force before comes back, and the next transfer learns again.
    func testATransferThatFailsDuringItsTrialLeavesThePacingAsItWas() async throws {
        var configuration = device
        configuration.images = SimulatedImageConfiguration(slotSize: 128 * 1024)
        let link = try await PTYLink.start(
            configuration: configuration, deviceFaults: [.rejectImage], simulator: PTYSimulatorOptions(lineBuffers: .init(count: 16)), port: SerialPortOptions())
        let image = content
        do {
            _ = try await ImageUpload(client: link.client, target: ImageUploadTarget()).upload(from: image, sha: SHA256Hash.digest(image))
            XCTFail("the device refuses every image")
        } catch let error as SMPError {
            guard case .device = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(link.transport.linePacing, .zephyrDefault)
        XCTAssertFalse(link.transport.linePacingIsSettled)
        _ = try await FileSystemUpload(client: link.client, name: remote, state: .missing).upload(from: image)
        let stored = await (link.device.group(.fileSystem) as? FileSystemGroup)?.files[remote]
        XCTAssertEqual(stored, image)
        XCTAssertEqual(link.transport.linePacing, LinePacing(burst: link.transport.lineCount(forMessageOfSize: 1020), gap: LinePacing.zephyrDefault.gap))
        XCTAssertTrue(link.transport.linePacingIsSettled)
        await link.stop()
    }

    /// A pacing given in the connection string is used as it is: the first chunk does not try a
    /// burst of its own.
    func testAGivenPacingIsNotLearned() async throws {
        let given = LinePacing(burst: 3, gap: .milliseconds(20))
        let link = try await PTYLink.start(configuration: device, simulator: PTYSimulatorOptions(lineBuffers: .init(count: 4)), port: SerialPortOptions(pacing: given))
        _ = try await FileSystemUpload(client: link.client, name: remote, state: .missing).upload(from: content)
        XCTAssertEqual(link.transport.linePacing, given)
        let lost = await link.client.statistics.lost
        XCTAssertEqual(lost, 0)
        await link.stop()
    }
}
