import Foundation
import SMP
import SMPSimulator
import XCTest

/// `fs put` and `fs get` end verified: a device that stores other bytes than it acknowledged gets
/// the file once more from offset 0; a second mismatch is a loud failure (exit 2) that leaves no
/// downloaded file behind.
final class FileSystemVerifiedTransferTests: XCTestCase {
    private let content = FileSystemTestFolder.content(30_000)

    func testAPutTheDeviceStoredWronglyIsSentOnceMoreFromOffsetZero() async throws {
        var configuration = VirtualDeviceConfiguration.fileSystemDevice()
        configuration.fileSystem?.corruptedChunks = 1
        let served = try await startDevice(configuration)
        let local = try FileSystemTestFolder(self).write("data.bin", content)
        let run = try await SMPCtl.run(["fs", "put", local, "/lfs1/data.bin", "--verify", "-c", served.endpoint])
        assertExit(run, 0)
        XCTAssertTrue(run.stdout.contains("transferred again from offset 0"), "\(run)")
        XCTAssertTrue(run.stdout.contains("verified: the device's sha256 matches"), "\(run)")
        let stored = await served.device.file("/lfs1/data.bin")
        XCTAssertEqual(stored, content)
    }

    func testAPutThatNeverMatchesFailsLoudly() async throws {
        var configuration = VirtualDeviceConfiguration.fileSystemDevice()
        configuration.fileSystem?.corruptedChunks = 1_000
        let served = try await startDevice(configuration)
        let local = try FileSystemTestFolder(self).write("data.bin", content)
        let run = try await SMPCtl.run(["fs", "put", local, "/lfs1/data.bin", "--verify", "--json", "-c", served.endpoint])
        assertExit(run, 2)
        XCTAssertTrue(run.stdout.split(separator: "\n").last?.contains("\"name\":\"device-error\"") == true, "the last line is the error document: \(run)")
        assertStderr(run, contains: "verification failed after 2 transfers", "sha256")
    }

    func testAGetThatNeverMatchesFailsAndLeavesNoFile() async throws {
        let lying = LyingHashGroup(inner: FileSystemGroup(configuration: SimulatedFileSystemConfiguration(files: ["/lfs1/data.bin": content])))
        let served = try await startDevice(.fileSystemDevice(), groups: [lying])
        let folder = try FileSystemTestFolder(self)
        let target = (folder.path as NSString).appendingPathComponent("got.bin")
        let run = try await SMPCtl.run(["fs", "get", "/lfs1/data.bin", target, "--verify", "-c", served.endpoint])
        assertExit(run, 2)
        assertStderr(run, contains: "verification failed after 2 transfers")
        XCTAssertNil(folder.read("got.bin"), "a download that does not match is not renamed into place")
        XCTAssertNil(folder.read("got.bin.part"), "nor left behind")
    }
}
