import Foundation
import SMP
import SMPLocalFiles
import SMPSimulator
import SMPTestSupport
import Synchronization
import XCTest

/// ``FileSystemDownload`` over real UDP against the virtual device, into a real local folder: a
/// fresh download is renamed into place unchecked, a `.part` file the device's hash confirms is
/// continued and the result checked, one it does not confirm (or `restart`) starts at offset 0.
final class FileSystemDownloadUDPTests: XCTestCase {
    private let remote = "/lfs1/log.bin"

    private var content: [UInt8] {
        var generator = SplitMix64(seed: 0xD0)
        return (0..<30_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    private func link() async throws -> SimulatorLink {
        let fileSystem = SimulatedFileSystemConfiguration(files: [remote: content])
        return try await SimulatorLink.start(configuration: VirtualDeviceConfiguration(fileSystem: fileSystem))
    }

    /// A scratch folder removed when the test ends.
    private func folder() throws -> String {
        let path = try FixtureScratch.makeFolder("fs-download").path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map(Array.init)
    }

    func testAFreshDownloadIsRenamedIntoPlaceUnchecked() async throws {
        let link = try await link()
        let destination = try folder() + "/log.bin"
        let result = try await FileSystemDownload(client: link.client, name: remote, window: 3).download(to: destination)
        XCTAssertEqual(contents(destination), content)
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination + ".part"))
        XCTAssertEqual(result.attempts, 1)
        XCTAssertFalse(result.checked)
        XCTAssertNil(result.verification)
        XCTAssertNil(result.download.progress.resumedFrom)
        XCTAssertEqual(result.download.window, 3)
        let verified = try await FileSystemDownload(client: link.client, name: remote, verification: .always).download(to: destination)
        XCTAssertTrue(verified.checked)
        XCTAssertEqual(verified.verification?.matches, true)
        await link.stop()
    }

    func testAConfirmedPartIsContinuedAndChecked() async throws {
        let link = try await link()
        let destination = try folder() + "/log.bin"
        try Data(content.prefix(12_000)).write(to: URL(fileURLWithPath: destination + ".part"))
        let result = try await FileSystemDownload(client: link.client, name: remote).download(to: destination)
        XCTAssertEqual(result.download.progress.resumedFrom, 12_000)
        XCTAssertTrue(result.checked)
        XCTAssertEqual(result.verification?.matches, true)
        XCTAssertEqual(contents(destination), content)
        await link.stop()
    }

    func testAPartTheDeviceDoesNotConfirmOrRestartStartsAtZero() async throws {
        let link = try await link()
        let destination = try folder() + "/log.bin"
        try Data([UInt8](repeating: 0xEE, count: 12_000)).write(to: URL(fileURLWithPath: destination + ".part"))
        let foreign = try await FileSystemDownload(client: link.client, name: remote).download(to: destination)
        XCTAssertNil(foreign.download.progress.resumedFrom)
        XCTAssertEqual(contents(destination), content)
        try Data(content.prefix(12_000)).write(to: URL(fileURLWithPath: destination + ".part"))
        let restarted = try await FileSystemDownload(client: link.client, name: remote, restart: true).download(to: destination)
        XCTAssertNil(restarted.download.progress.resumedFrom)
        XCTAssertFalse(restarted.checked)
        XCTAssertEqual(contents(destination), content)
        await link.stop()
    }

    func testAPartThatCannotBeContinuedIsReportedAndLeftAlone() async throws {
        let link = try await link()
        let folder = try folder()
        let destination = folder + "/log.bin"
        XCTAssertEqual(symlink(folder + "/elsewhere", destination + ".part"), 0)
        let warnings = WarningLog()
        let result = try await FileSystemDownload(client: link.client, name: remote).download(to: destination) { warnings.add($0) }
        XCTAssertEqual(result.attempts, 1)
        XCTAssertEqual(contents(destination), content)
        XCTAssertEqual(warnings.all.count, 1)
        XCTAssertTrue(warnings.all.first?.hasPrefix("\(destination).part is not continued") == true, "\(warnings.all)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/elsewhere"), "nothing written through the link")
        await link.stop()
    }

    func testAMissingRemoteFileFailsAndLeavesNothing() async throws {
        let link = try await link()
        let folder = try folder()
        do {
            _ = try await FileSystemDownload(client: link.client, name: "/lfs1/none.bin").download(to: folder + "/none.bin")
            XCTFail("a missing file was downloaded")
        } catch SMPError.device(.groupError(let error), _) {
            XCTAssertEqual(error.name, "FS_MGMT_ERR_FILE_NOT_FOUND")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "no .part file is kept after a device's refusal")
        await link.stop()
    }
}

/// The warnings a download reported.
private final class WarningLog: Sendable {
    private let lines = Mutex<[String]>([])

    func add(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }
}
