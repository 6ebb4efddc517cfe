import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import SMPUDP
import XCTest

/// File upload (``ChunkedUploader`` with ``FileUploadTarget``) and windowed download
/// (``FileDownloader``) over real UDP against the virtual device's file system group: windows,
/// fault injection, wrong-offset rewinds, and resume in both directions.
final class FileSystemTransferUDPTests: XCTestCase {
    private let remote = "/lfs1/data.bin"

    private var content: [UInt8] {
        var generator = SplitMix64(seed: 0xF5)
        return (0..<150_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    private func configuration(files: [String: [UInt8]] = [:], flavour: SMPServerFlavour = .zephyr) -> VirtualDeviceConfiguration {
        VirtualDeviceConfiguration(flavour: flavour, fileSystem: SimulatedFileSystemConfiguration(files: files))
    }

    private func deviceFile(_ link: SimulatorLink) async -> [UInt8]? {
        (await link.device.group(.fileSystem) as? FileSystemGroup)?.files[remote]
    }

    private func upload(_ link: SimulatorLink, window: Int?, source: some UploadSource, resumingAt offset: UInt64 = 0) async throws -> UploadResult {
        let uploader = ChunkedUploader(client: link.client, target: FileUploadTarget(name: remote), options: ChunkedUploadOptions(window: window))
        return try await uploader.upload(from: source, sha: nil, resumingAt: offset)
    }

    func testUploadFromAFileWithWindowsOneAndThree() async throws {
        let temporary = try TemporaryFile(content)
        let path = temporary.path
        defer { withExtendedLifetime(temporary) {} }
        for window in [1, 3] {
            let link = try await SimulatorLink.start(configuration: configuration())
            let result = try await upload(link, window: window, source: try FileUploadSource(path: path))
            XCTAssertEqual(result.window, window)
            XCTAssertEqual(result.progress.acknowledged, UInt64(content.count))
            XCTAssertEqual(result.progress.bytesSent, UInt64(content.count), "window \(window): nothing sent twice")
            let stored = await deviceFile(link)
            XCTAssertEqual(stored, content, "window \(window)")
            await link.stop()
        }
    }

    func testDownloadWithWindowsOneAndThreeWritesEveryByteAtItsOffset() async throws {
        for window in [1, 3] {
            let link = try await SimulatorLink.start(configuration: configuration(files: [remote: content]))
            let sink = MemorySink()
            let result = try await FileDownloader(client: link.client, name: remote, options: FileDownloadOptions(window: window)).download(into: sink)
            XCTAssertEqual(sink.bytes, content, "window \(window)")
            XCTAssertEqual(result.chunkSize, SimulatedFileSystemConfiguration().chunkSize(bufferSize: 2048))
            XCTAssertEqual(result.progress.total, UInt64(content.count))
            XCTAssertEqual(result.window, window)
            await link.stop()
        }
    }

    func testAnEmptyFileGoesBothWays() async throws {
        let link = try await SimulatorLink.start(configuration: configuration(files: ["/lfs1/empty": []]))
        _ = try await upload(link, window: 2, source: [UInt8]())
        let stored = await deviceFile(link)
        XCTAssertEqual(stored, [])
        let sink = MemorySink()
        sink.bytes = [1, 2, 3]
        let result = try await FileDownloader(client: link.client, name: "/lfs1/empty").download(into: sink)
        XCTAssertEqual(result.progress.total, 0)
        XCTAssertEqual(sink.bytes, [], "finish cut what the sink held")
        await link.stop()
    }

    func testFaultsNeverCorruptEitherDirection() async throws {
        for (label, faults) in [
            ("drop", FaultInjection(drop: 0.1, seed: 21)),
            ("duplicate", FaultInjection(duplicate: 0.2, seed: 22)),
            ("reorder", FaultInjection(reorder: 0.2, seed: 23)),
            ("busy", FaultInjection(busy: 0.1, seed: 24)),
        ] {
            // Faults hit requests and answers alike: six retries make a request lost seven times in a
            // row (about 1 in 10⁵ at 10 % drops) too rare to fail the test by chance.
            let link = try await SimulatorLink.start(
                configuration: configuration(), faults: faults, client: SMPClientConfiguration(timeout: .milliseconds(250), retries: 6))
            _ = try await upload(link, window: 3, source: content)
            let stored = await deviceFile(link)
            XCTAssertEqual(stored, content, "\(label): upload")
            let sink = MemorySink()
            _ = try await FileDownloader(client: link.client, name: remote, options: FileDownloadOptions(window: 3)).download(into: sink)
            XCTAssertEqual(sink.bytes, content, "\(label): download")
            await link.stop()
        }
    }

    func testACancelledUploadResumesAtTheDevicesSize() async throws {
        let link = try await SimulatorLink.start(configuration: configuration())
        let uploader = ChunkedUploader(client: link.client, target: FileUploadTarget(name: remote), options: ChunkedUploadOptions(window: 3))
        let file = content
        await cancelHalfway(of: file.count) { progress in try await uploader.upload(from: file, sha: nil, progress: progress) }
        let half = UInt64(file.count / 2)
        // Like Zephyr's LittleFS, the device shows the file's size only once it closed the file.
        let shown = try await link.client.send(FileStatus(name: remote))
        XCTAssertEqual(shown, 0, "the size of a file still open for the upload")
        try await FileSystemClose.closeIgnoringUnsupported(link.client)
        let held = try await link.client.send(FileStatus(name: remote))
        XCTAssertGreaterThanOrEqual(held, half)
        let resumed = try await uploader.upload(from: file, sha: nil, resumingAt: held)
        XCTAssertEqual(resumed.progress.resumedFrom, held)
        XCTAssertEqual(resumed.progress.bytesSent, UInt64(file.count) - held)
        let stored = await deviceFile(link)
        XCTAssertEqual(stored, file)
        await link.stop()
    }

    func testAWrongResumeOffsetRewindsToTheDevicesLength() async throws {
        for flavour in SMPServerFlavour.allCases {
            let file = content
            let link = try await SimulatorLink.start(configuration: configuration(files: [remote: Array(file.prefix(40_000))], flavour: flavour))
            let result = try await upload(link, window: 3, source: file, resumingAt: 90_000)
            XCTAssertEqual(result.progress.acknowledged, UInt64(file.count))
            let stored = await deviceFile(link)
            XCTAssertEqual(stored, file, "\(flavour): rewound to 40000 by FILE_OFFSET_NOT_VALID's len")
            await link.stop()
        }
    }

    func testADownloadResumesFromThePartItHolds() async throws {
        let file = content
        let link = try await SimulatorLink.start(configuration: configuration(files: [remote: file]))
        let sink = MemorySink()
        sink.bytes = Array(file.prefix(100_000))
        let result = try await FileDownloader(client: link.client, name: remote, options: FileDownloadOptions(window: 2))
            .download(into: sink, resumingAt: 100_000)
        XCTAssertEqual(sink.bytes, file)
        XCTAssertEqual(result.progress.resumedFrom, 100_000)
        XCTAssertLessThanOrEqual(
            result.progress.bytesSent, UInt64(file.count - 100_000 + result.chunkSize),
            "the held part was not asked for again, but for the first answer (offset 0), which brings the length")
        await link.stop()
    }

    func testADownloadOfAMissingFileFails() async throws {
        let link = try await SimulatorLink.start(configuration: configuration())
        do {
            _ = try await FileDownloader(client: link.client, name: "/lfs1/none").download(into: MemorySink())
            XCTFail("expected FILE_NOT_FOUND")
        } catch SMPError.device(.groupError(let error), _) {
            XCTAssertEqual(error.code, 3)
        }
        await link.stop()
    }
}

/// A download sink in memory.
final class MemorySink: DownloadSink, @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [UInt8] = []

    var bytes: [UInt8] {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }

    func write(_ bytes: [UInt8], at offset: UInt64) {
        lock.withLock {
            let end = Int(offset) + bytes.count
            if end > storage.count { storage += [UInt8](repeating: 0, count: end - storage.count) }
            storage.replaceSubrange(Int(offset)..<end, with: bytes)
        }
    }

    func finish(length: UInt64) {
        lock.withLock { storage = Array(storage.prefix(Int(length))) }
    }
}

/// A file in the temporary directory, removed when the value goes away.
final class TemporaryFile {
    let path: String

    init(_ bytes: [UInt8]) throws {
        path = NSTemporaryDirectory() + "fs-test-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
