import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// How many requests a file upload costs the device (docs/file-system.md, "Requests of a put"),
/// counted by the virtual device over real UDP: besides the chunks, only what the protocol needs.
final class FileSystemUploadRequestsUDPTests: XCTestCase {
    private let remote = "/lfs1/counted.bin"

    private var content: [UInt8] {
        var generator = SplitMix64(seed: 0x29)
        return (0..<8000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    /// Requests the device handles while `body` runs.
    private func requests(on link: SimulatorLink, _ body: () async throws -> FileSystemUpload.Result) async throws -> (Int, FileSystemUpload.Result) {
        let before = await link.device.statistics.requests
        let result = try await body()
        let after = await link.device.statistics.requests
        return (after - before, result)
    }

    func testANewFileCostsTheChunksPlusFileStatusAndTheParameters() async throws {
        let link = try await SimulatorLink.start()
        let (count, result) = try await requests(on: link) {
            try await FileSystemUpload(client: link.client, name: remote).upload(from: content)
        }
        let chunks = result.upload.progress.chunksSent
        XCTAssertGreaterThan(chunks, 1)
        // File status (nothing there, so nothing of it is open: no close), the device's MCUmgr
        // parameters (they size the chunks), the chunks; the device closes the file at its last byte.
        XCTAssertEqual(count, chunks + 2)
        XCTAssertFalse(result.checked)
        let stored = await (link.device.group(.fileSystem) as? FileSystemGroup)?.files[remote]
        XCTAssertEqual(stored, content)
        await link.stop()
    }

    func testAStatusTheCallerAlreadyHasIsNotAskedAgain() async throws {
        let link = try await SimulatorLink.start()
        let (count, result) = try await requests(on: link) {
            try await FileSystemUpload(client: link.client, name: remote, state: .missing).upload(from: content)
        }
        XCTAssertEqual(count, result.upload.progress.chunksSent + 1)
        await link.stop()
    }

    func testAFileTheDeviceHoldsWholeIsCheckedOnceAndNotSent() async throws {
        let link = try await SimulatorLink.start(configuration: VirtualDeviceConfiguration(fileSystem: SimulatedFileSystemConfiguration(files: [remote: content])))
        let (count, result) = try await requests(on: link) {
            try await FileSystemUpload(client: link.client, name: remote).upload(from: content)
        }
        // File status, close (an interrupted upload of it may be open), file status again (the
        // size once closed), the hash types, the hash: it matches, so nothing is sent or hashed again.
        XCTAssertEqual(count, 5)
        XCTAssertEqual(result.upload.progress.chunksSent, 0)
        XCTAssertEqual(result.upload.progress.resumedFrom, 8000)
        XCTAssertEqual(result.verification?.matches, true)
        await link.stop()
    }

    func testAResumeAddsTheChecksItNeedsAndAsksTheHashTypesOnce() async throws {
        let link = try await SimulatorLink.start(
            configuration: VirtualDeviceConfiguration(fileSystem: SimulatedFileSystemConfiguration(files: [remote: Array(content.prefix(3000))])))
        let (count, result) = try await requests(on: link) {
            try await FileSystemUpload(client: link.client, name: remote).upload(from: content)
        }
        XCTAssertEqual(result.upload.progress.resumedFrom, 3000)
        XCTAssertEqual(result.verification?.matches, true)
        // File status, close, file status, hash types, hash of the part; the parameters; the
        // chunks; close (a resumed pass never told the device the length); the hash of the whole.
        XCTAssertEqual(count, result.upload.progress.chunksSent + 8)
        await link.stop()
    }
}
