import SMP
import SMPSimulator
import SMPTestSupport
import SMPUDP
import XCTest

/// ``ChunkedUploader`` over real UDP against the virtual device's image group: a 200 KB image,
/// windows 1 and 3, fault injection, and resume after a cancelled upload.
final class ImageUploadUDPTests: XCTestCase {
    private let imageHash = [UInt8](repeating: 0x6B, count: 32)

    /// A valid 2.0.0 image of about 200 KB.
    private var imageFile: [UInt8] {
        var generator = SplitMix64(seed: 0x1A6E)
        let body = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        return SimulatedImageHeader.imageFile(version: (2, 0, 0, 0), body: body, hash: imageHash)
    }

    private var configuration: VirtualDeviceConfiguration {
        var configuration = VirtualDeviceConfiguration()
        configuration.images = SimulatedImageConfiguration(slotSize: 256 * 1024)
        return configuration
    }

    /// Uploads, checks the device's `match` and that the secondary slot lists the image's hash.
    @discardableResult
    private func upload(
        window: Int?, faults: FaultInjection = .none, timeout: Duration = .seconds(2)
    ) async throws -> UploadResult {
        let link = try await SimulatorLink.start(configuration: configuration, faults: faults, client: SMPClientConfiguration(timeout: timeout))
        let file = imageFile
        let options = ChunkedUploadOptions(window: window)
        let result = try await ChunkedUploader(client: link.client, target: ImageUploadTarget(), options: options).upload(file)
        XCTAssertEqual(result.match, true)
        XCTAssertEqual(result.progress.acknowledged, UInt64(file.count))
        let list = try await link.client.send(ImageState())
        XCTAssertEqual(list.images.first { $0.slot == 1 }?.hash, imageHash)
        let group = await link.device.group(.image) as? ImageGroup
        XCTAssertEqual(group?.contents(image: 0, slot: 1), file, "the image arrived intact")
        await link.stop()
        return result
    }

    func testWindowOneAndWindowThreeUploadTheImage() async throws {
        let single = try await upload(window: 1)
        let three = try await upload(window: 3)
        XCTAssertEqual(single.window, 1)
        XCTAssertEqual(three.window, 3)
        // Chunks leave in offset order and the server answers in order: nothing is sent twice.
        XCTAssertEqual(three.progress.bytesSent, UInt64(imageFile.count))
        XCTAssertEqual(three.progress.restarts, 0)
        print("UDP loopback upload of \(imageFile.count) bytes: window 1 \(Int(single.progress.bytesPerSecond / 1024)) KiB/s, window 3 \(Int(three.progress.bytesPerSecond / 1024)) KiB/s")
    }

    func testTheDefaultWindowIsTheDevicesBufferCountLessOne() async throws {
        let result = try await upload(window: nil)
        XCTAssertEqual(result.window, max(1, configuration.bufferCount - 1))
    }

    func testFaultsNeverCorruptTheImageNorRestartWithoutNeed() async throws {
        for (name, faults) in [
            ("drop", FaultInjection(drop: 0.15, seed: 11)),
            ("duplicate", FaultInjection(duplicate: 0.2, seed: 12)),
            ("reorder", FaultInjection(reorder: 0.2, seed: 13)),
            ("delay", FaultInjection(delay: 0.15, delayDuration: .milliseconds(30), seed: 14)),
            ("busy", FaultInjection(busy: 0.15, seed: 15)),
            ("mixed", FaultInjection(drop: 0.05, duplicate: 0.05, delay: 0.05, delayDuration: .milliseconds(20), reorder: 0.05, busy: 0.05, seed: 16)),
        ] {
            for window in [1, 3] {
                let result = try await upload(window: window, faults: faults, timeout: .milliseconds(250))
                // A lost answer to the last chunk makes the client resend the first chunk; the
                // device's image check answers it with off = len and match (nothing is sent again).
                XCTAssertLessThanOrEqual(result.progress.restarts, 1, "\(name), window \(window): \(result.progress)")
                XCTAssertLessThanOrEqual(
                    Double(result.progress.bytesSent), 1.5 * Double(imageFile.count), "\(name), window \(window): \(result.progress)")
            }
        }
    }

    func testACancelledUploadResumesFromTheDevicesOffset() async throws {
        let link = try await SimulatorLink.start(configuration: configuration)
        let file = imageFile
        let uploader = ChunkedUploader(client: link.client, target: ImageUploadTarget(), options: ChunkedUploadOptions(window: 3))
        await cancelHalfway(of: file.count) { progress in try await uploader.upload(file, progress: progress) }
        let half = UInt64(file.count / 2)
        let resumed = try await uploader.upload(file)
        XCTAssertGreaterThanOrEqual(resumed.progress.resumedFrom ?? 0, half)
        XCTAssertEqual(resumed.match, true)
        XCTAssertLessThan(resumed.progress.bytesSent, UInt64(file.count) - half + 4096)
        let list = try await link.client.send(ImageState())
        XCTAssertEqual(list.images.first { $0.slot == 1 }?.hash, imageHash)
        await link.stop()
    }

    func testALostAnswerToTheFirstChunkIsFoundByAProbeNotByTheEraseTimeout() async throws {
        let device = VirtualDevice(configuration: configuration)
        let lossy = FirstChunkAnswerLoss(device: device)
        let server = UDPSimulatorServer(handler: lossy, host: "127.0.0.1", port: 0)
        let port = try await server.start()
        let client = SMPClient(
            transport: try await UDPTransport.connect(host: "127.0.0.1", port: port), configuration: SMPClientConfiguration(timeout: .milliseconds(300)))
        let file = imageFile
        let result = try await ChunkedUploader(client: client, target: ImageUploadTarget()).upload(file)
        XCTAssertEqual(result.match, true)
        let firstChunks = await lossy.firstChunks
        XCTAssertEqual(firstChunks, 2, "the first chunk went again after the probe")
        // Sent again as a new request because the probe was answered: not because the first
        // chunk's erase timeout ran out (that would count a timeout or a retransmission).
        let statistics = await client.statistics
        XCTAssertEqual(statistics.timeouts, 0, "\(statistics)")
        XCTAssertEqual(statistics.retransmissions, 0, "\(statistics)")
        let group = await device.group(.image) as? ImageGroup
        XCTAssertEqual(group?.contents(image: 0, slot: 1), file)
        await client.close()
        await server.stop()
    }
}

/// A device whose answer to the first upload chunk (offset 0) is lost once; it processed the chunk.
private actor FirstChunkAnswerLoss: SimulatedFrameHandler {
    let device: VirtualDevice
    private(set) var firstChunks = 0

    init(device: VirtualDevice) { self.device = device }

    func deliveries(for frame: [UInt8]) async -> [SimulatedDelivery] {
        let answers = await device.deliveries(for: frame)
        guard let message = try? SMPMessage(decoding: frame), message.header.group == .image,
              message.header.command == ImageCommandID.upload, message.payload["off"]?.intValue == 0
        else { return answers }
        firstChunks += 1
        return firstChunks == 1 ? [] : answers
    }
}
