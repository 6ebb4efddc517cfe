import CBOR
import SMP
import SMPSimulator
import XCTest

/// The open upload as Zephyr's fs_mgmt keeps it (docs/file-system.md): offset 0 on the file still
/// open counts on from the old offset and lands at the file's end; other requests see only what
/// was committed until the file is closed.
final class FileSystemUploadStateTests: XCTestCase {
    private let content = FileSystemTestDevice.bytes(1000)

    func testOffsetZeroOnTheOpenFileCountsOnFromTheOldOffset() async throws {
        let device = FileSystemTestDevice()
        _ = try await device.write("/lfs1/a.bin", at: 0, Array(content[0..<300]), length: content.count)
        let again = try await device.write("/lfs1/a.bin", at: 0, Array(content[0..<100]), length: content.count)
        XCTAssertEqual(again, ["off": 400], "the stale offset plus the chunk")
        _ = try await device.send(.write, 4)
        let group = try await device.group()
        XCTAssertEqual(group.files["/lfs1/a.bin"], Array(content[0..<300] + content[0..<100]), "the chunk went to the file's end")
    }

    func testCloseResetsTheUploadState() async throws {
        let device = FileSystemTestDevice()
        _ = try await device.write("/lfs1/a.bin", at: 0, Array(content[0..<300]), length: content.count)
        _ = try await device.send(.write, 4)
        let fresh = try await device.write("/lfs1/a.bin", at: 0, Array(content[0..<100]), length: content.count)
        XCTAssertEqual(fresh, ["off": 100])
        let group = try await device.group()
        XCTAssertEqual(group.files["/lfs1/a.bin"], Array(content[0..<100]), "offset 0 truncated the closed file")
    }

    func testAnOpenUploadShowsOnlyOnceClosed() async throws {
        let device = FileSystemTestDevice(SimulatedFileSystemConfiguration(files: ["/lfs1/a.bin": FileSystemTestDevice.bytes(50, seed: 3)]))
        _ = try await device.write("/lfs1/a.bin", at: 0, Array(content[0..<300]), length: content.count)
        var status = try await device.send(.read, 1, ["name": "/lfs1/a.bin"])
        XCTAssertEqual(status["len"], 50, "status shows the committed file while the upload holds it open")
        _ = try await device.send(.write, 4)
        status = try await device.send(.read, 1, ["name": "/lfs1/a.bin"])
        XCTAssertEqual(status["len"], 300)
    }
}
