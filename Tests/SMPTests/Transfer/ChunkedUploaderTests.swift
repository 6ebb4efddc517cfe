import CBOR
import SMPTestSupport
import XCTest
@testable import SMP

/// ``ChunkedUploader`` against a scripted Zephyr-like device: chunk sizes, window, rewinds,
/// restarts, resume, hash verdicts and cancellation.
final class ChunkedUploaderTests: XCTestCase {
    private let file: [UInt8] = [0x3D, 0xB8, 0xF3, 0x96] + (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }

    private func uploader(
        _ model: UploadDeviceModel, bufferSize: Int = 512, bufferCount: Int = 4, options: ChunkedUploadOptions = ChunkedUploadOptions(),
        timeout: Duration = .seconds(2), clock: any Clock<Duration> = ContinuousClock()
    ) -> (ChunkedUploader<ImageUploadTarget>, MockDevice) {
        let device = MockDevice(script: model.script(bufferSize: bufferSize, bufferCount: bufferCount))
        let client = SMPClient(transport: device, configuration: SMPClientConfiguration(timeout: timeout), clock: clock)
        return (ChunkedUploader(client: client, target: ImageUploadTarget(), options: options), device)
    }

    func testUploadsWithTheDevicesWindowAndFullMessages() async throws {
        let model = UploadDeviceModel()
        let (uploader, device) = uploader(model)
        let result = try await uploader.upload(file)
        XCTAssertEqual(model.completed, file)
        XCTAssertEqual(result.match, true)
        XCTAssertEqual(result.window, 3, "buf_count − 1")
        XCTAssertNil(result.progress.resumedFrom)
        XCTAssertEqual(result.progress.bytesSent, UInt64(file.count))
        XCTAssertEqual(model.firstChunks.count, 1)
        let first = try XCTUnwrap(model.firstChunks.first)
        XCTAssertEqual(first["len"], .unsigned(UInt64(file.count)))
        XCTAssertEqual(first["sha"], .bytes(SHA256Hash.digest(file)))
        let sizes = await device.requests(group: .image, command: ImageCommandID.upload).map { $0.encoded().count }
        XCTAssertEqual(sizes.dropLast().filter { $0 != 512 }, [], "every chunk but the last fills the 512-byte buffer exactly")
    }

    func testChunkLengthsAreExactAndAligned() throws {
        let sizer = ChunkSizer(target: ImageUploadTarget(image: 1, upgrade: true), maximumMessageSize: 300, alignment: 1, total: 100_000, sha: [UInt8](repeating: 1, count: 32))
        for (offset, isFirst) in [(UInt64(0), true), (20, false), (300, false), (70_000, false)] {
            let length = try sizer.length(at: offset, isFirst: isFirst)
            let overhead = { (length: Int) in sizer.target.overhead(offset: offset, dataLength: length, isFirst: isFirst, totalLength: 100_000, sha: sizer.sha) }
            XCTAssertLessThanOrEqual(length + overhead(length), 300)
            XCTAssertGreaterThan(length + 1 + overhead(length + 1), 300, "offset \(offset)")
        }
        let aligned = ChunkSizer(target: ImageUploadTarget(), maximumMessageSize: 300, alignment: 16, total: 1000, sha: nil)
        XCTAssertEqual(try aligned.length(at: 16, isFirst: false) % 16, 0)
        XCTAssertEqual(try aligned.length(at: 990, isFirst: false), 10, "the last chunk is the remainder")
        let tiny = ChunkSizer(target: ImageUploadTarget(), maximumMessageSize: 80, alignment: 1, total: 1000, sha: [UInt8](repeating: 1, count: 32))
        XCTAssertThrowsError(try tiny.length(at: 0, isFirst: true)) { error in
            XCTAssertEqual(error as? ChunkedUploadError, .messageTooSmall(maximumMessageSize: 80, needed: 32))
        }
    }

    func testTruncatedChunksAreProgressAndTeachTheWriteUnit() async throws {
        for bufferSize in [512, 509, 1024] {
            let model = UploadDeviceModel()
            model.alignment = 8
            let (uploader, _) = uploader(model, bufferSize: bufferSize)
            let result = try await uploader.upload(file)
            XCTAssertEqual(model.completed, file)
            XCTAssertEqual(result.match, true)
            XCTAssertNil(result.progress.resumedFrom, "a partly stored first chunk is not a resume")
            let unit = try XCTUnwrap(result.learnedAlignment, "buf_size \(bufferSize)")
            XCTAssertEqual(unit % 8, 0, "buf_size \(bufferSize): a multiple of the device's unit")
            XCTAssertLessThan(result.progress.bytesSent, UInt64(file.count + 8), "buf_size \(bufferSize): only the first chunk's tail is sent twice")
        }
    }

    func testAlignedChunksAreNotResent() async throws {
        let model = UploadDeviceModel()
        model.alignment = 8
        let (uploader, _) = uploader(model, options: ChunkedUploadOptions(window: 2, alignment: 8))
        let result = try await uploader.upload(file)
        XCTAssertEqual(model.completed, file)
        XCTAssertEqual(result.progress.bytesSent, UInt64(file.count))
    }

    func testALostStateRestartsWithAFirstChunk() async throws {
        let model = UploadDeviceModel()
        model.loseStateAtChunk = 12
        let (uploader, _) = uploader(model, options: ChunkedUploadOptions(window: 1))
        let result = try await uploader.upload(file)
        XCTAssertEqual(model.completed, file)
        XCTAssertEqual(result.match, true)
        XCTAssertEqual(model.firstChunks.count, 2)
    }

    func testResumesFromTheDevicesOffset() async throws {
        let model = UploadDeviceModel()
        model.hold(file, upTo: 12_000)
        let (uploader, _) = uploader(model)
        let result = try await uploader.upload(file)
        XCTAssertEqual(model.completed, file)
        XCTAssertEqual(result.progress.resumedFrom, 12_000)
        XCTAssertLessThan(result.progress.bytesSent, 9_000)
    }

    func testRestartClearsTheDevicesStateFirst() async throws {
        let model = UploadDeviceModel()
        model.hold(file, upTo: 12_000)
        let (uploader, _) = uploader(model, options: ChunkedUploadOptions(restart: true))
        let result = try await uploader.upload(file)
        XCTAssertEqual(model.completed, file)
        XCTAssertNil(result.progress.resumedFrom)
        XCTAssertEqual(model.firstChunks.map { $0["sha"] == nil }, [true, false])
    }

    func testAFalseMatchFails() async throws {
        let model = UploadDeviceModel()
        model.forcedMatch = false
        let (uploader, _) = uploader(model)
        do {
            _ = try await uploader.upload(file)
            XCTFail("expected a hash mismatch")
        } catch {
            XCTAssertEqual(error as? ChunkedUploadError, .hashMismatch)
            XCTAssertEqual("\(error)", "the device's hash of the upload does not match the file")
        }
    }

    func testDroppedResponsesDoNotStallTheWindow() async throws {
        let model = UploadDeviceModel()
        model.droppedResponses = [3, 9, 20]
        // The clock never moves: the upload ends only if later acknowledgements cover the lost answers.
        let (uploader, _) = uploader(model, timeout: .seconds(5), clock: ManualClock())
        let file = file
        let ended = await outcomeWhileTheClockStands(of: Task { try await uploader.upload(file) })
        let result = try XCTUnwrap(ended).get()
        XCTAssertEqual(model.completed, file)
        // Under load the device may see a chunk out of order, which costs one rewind at most (as over UDP).
        XCTAssertLessThanOrEqual(result.progress.bytesSent, UInt64(Double(file.count) * 1.1), "at most a rewind re-sent")
    }

    func testCancellationStopsPromptlyAndKeepsTheDevicesState() async throws {
        let model = UploadDeviceModel()
        let (uploader, _) = uploader(model)
        let file = file
        let task = Task {
            try await uploader.upload(file) { progress in
                if progress.acknowledged > 8_000 { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        do {
            _ = try await task.value
            XCTFail("expected a cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertNil(model.completed)
        let resumed = try await uploader.upload(file)
        XCTAssertEqual(model.completed, file)
        XCTAssertGreaterThan(resumed.progress.resumedFrom ?? 0, 8_000)
    }
}
