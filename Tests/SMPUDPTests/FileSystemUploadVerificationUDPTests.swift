import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// ``FileSystemUpload`` over real UDP against the virtual device: the device's open upload is
/// closed first, a first chunk answered beyond its end is never a resume, a resumed upload is
/// checked by hash, and a mismatch uploads once more from offset 0, then fails.
final class FileSystemUploadVerificationUDPTests: XCTestCase {
    private let remote = "/lfs1/verified.bin"

    private var content: [UInt8] {
        var generator = SplitMix64(seed: 0x13)
        return (0..<20_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    private func link(files: [String: [UInt8]] = [:], corruptedChunks: Int = 0) async throws -> SimulatorLink {
        var fileSystem = SimulatedFileSystemConfiguration(files: files)
        fileSystem.corruptedChunks = corruptedChunks
        return try await SimulatorLink.start(configuration: VirtualDeviceConfiguration(fileSystem: fileSystem))
    }

    private func deviceFile(_ link: SimulatorLink) async -> [UInt8]? {
        (await link.device.group(.fileSystem) as? FileSystemGroup)?.files[remote]
    }

    func testAResumedUploadIsCheckedByTheDevicesHash() async throws {
        let link = try await link(files: [remote: Array(content.prefix(8000))])
        let result = try await FileSystemUpload(client: link.client, name: remote, window: 2).upload(from: content)
        XCTAssertEqual(result.upload.progress.resumedFrom, 8000)
        XCTAssertTrue(result.checked)
        XCTAssertEqual(result.verification?.matches, true)
        XCTAssertEqual(result.attempts, 1)
        let stored = await deviceFile(link)
        XCTAssertEqual(stored, content)
        await link.stop()
    }

    func testAnUnbrokenUploadIsNotCheckedUnlessAsked() async throws {
        let link = try await link()
        let result = try await FileSystemUpload(client: link.client, name: remote).upload(from: content)
        XCTAssertFalse(result.checked)
        XCTAssertNil(result.verification)
        let always = try await FileSystemUpload(client: link.client, name: remote, restart: true, verification: .always).upload(from: content)
        XCTAssertEqual(always.verification?.matches, true)
        await link.stop()
    }

    func testAnUploadTheDeviceStillHoldsOpenIsClosedFirst() async throws {
        let link = try await link()
        let junk = [UInt8](repeating: 0xEE, count: 900)
        _ = try await link.client.send(FileUploadChunk(name: remote, offset: 0, data: junk, length: UInt64(content.count)))
        // Without close, the device counts on from its open upload: never a resume.
        do {
            _ = try await ChunkedUploader(client: link.client, target: FileUploadTarget(name: remote)).upload(from: content, sha: nil)
            XCTFail("a first chunk answered beyond its end was taken as a resume")
        } catch let error as TransferVerificationError {
            guard case .staleUpload(let offset, _) = error else { return XCTFail("\(error)") }
            XCTAssertGreaterThan(offset, 900)
        }
        let result = try await FileSystemUpload(client: link.client, name: remote).upload(from: content)
        XCTAssertNil(result.upload.progress.resumedFrom)
        let stored = await deviceFile(link)
        XCTAssertEqual(stored, content)
        await link.stop()
    }

    func testAMismatchUploadsOnceMoreFromOffsetZero() async throws {
        let link = try await link(corruptedChunks: 1)
        let result = try await FileSystemUpload(client: link.client, name: remote, verification: .always).upload(from: content)
        XCTAssertEqual(result.attempts, 2)
        XCTAssertEqual(result.verification?.matches, true)
        let stored = await deviceFile(link)
        XCTAssertEqual(stored, content)
        await link.stop()
    }

    func testASecondMismatchFailsLoudly() async throws {
        let link = try await link(corruptedChunks: 1000)
        do {
            _ = try await FileSystemUpload(client: link.client, name: remote, verification: .always).upload(from: content)
            XCTFail("expected a verification failure")
        } catch let error as TransferVerificationError {
            guard case .mismatch(let what, _, _, _, let length, let attempts) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(what, remote)
            XCTAssertEqual(length, UInt64(content.count))
            XCTAssertEqual(attempts, 2)
            XCTAssertTrue("\(error)".hasPrefix("verification failed after 2 transfers"), "\(error)")
        }
        await link.stop()
    }
}
