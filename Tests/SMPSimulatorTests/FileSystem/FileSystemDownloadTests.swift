import CBOR
import SMP
import SMPSimulator
import XCTest

/// Download (docs/protocol/file-system.md §9.1): chunks of at most MCUMGR_GRP_FS_DL_CHUNK_SIZE, `len` at offset 0, an empty
/// answer at the end, the open file closed at the end or by close, and the errors.
final class FileSystemDownloadTests: XCTestCase {
    private let content = FileSystemTestDevice.bytes(5000)

    private func device(bufferSize: Int = 512, closeSupported: Bool = true, uptime: ManualUptime? = nil) -> FileSystemTestDevice {
        FileSystemTestDevice(
            SimulatedFileSystemConfiguration(files: ["/lfs1/dir/data.bin": content], closeSupported: closeSupported),
            bufferSize: bufferSize, uptime: uptime)
    }

    func testChunksFollowTheBufferSizeAndReassembleTheFile() async throws {
        let device = device()
        let chunk = SimulatedFileSystemConfiguration().chunkSize(bufferSize: 512)
        XCTAssertEqual(chunk, 512 - 8 - 42)
        let first = try await device.read("/lfs1/dir/data.bin", at: 0)
        XCTAssertEqual(first["len"], .integer(content.count))
        XCTAssertEqual(first["off"], 0)
        var received = try XCTUnwrap(first["data"]?.bytesValue)
        XCTAssertEqual(received.count, chunk)
        while received.count < content.count {
            let answer = try await device.read("/lfs1/dir/data.bin", at: received.count)
            XCTAssertNil(answer["len"], "len only at offset 0")
            XCTAssertEqual(answer["off"], .integer(received.count))
            received += try XCTUnwrap(answer["data"]?.bytesValue)
        }
        XCTAssertEqual(received, content)
        let group = try await device.group()
        XCTAssertFalse(group.hasOpenFile, "closed once the end was read")
        let end = try await device.read("/lfs1/dir/data.bin", at: content.count)
        XCTAssertEqual(end["data"], .bytes([]), "an empty chunk at the end")
    }

    func testTheLargestAnswerFitsTheBuffer() async throws {
        for size in [128, 384, 2048] {
            let device = device(bufferSize: size)
            let frames = await device.device.handle(frame: TestFrames.request(.read, group: .fileSystem, command: 0, payload: ["off": 0, "name": "/lfs1/dir/data.bin"]))
            XCTAssertLessThanOrEqual(try XCTUnwrap(frames.first).count, size, "buffer \(size)")
        }
    }

    func testErrors() async throws {
        let device = device()
        var answer = try await device.read("/lfs1/missing", at: 0)
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 3)
        answer = try await device.read("/lfs1/dir", at: 0)
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 4)
        answer = try await device.read("/lfs1/dir/data.bin", at: content.count + 1)
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 6)
        answer = try await device.read("", at: 0)
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 2)
        answer = try await device.read("/lfs1/" + String(repeating: "x", count: 64), at: 0)
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 2)
        answer = try await device.send(.read, 0, ["name": "/lfs1/dir/data.bin"])
        XCTAssertEqual(answer, ["rc": 3], "off is required")
    }

    func testCloseAndIdleCloseEndTheOpenFile() async throws {
        let uptime = ManualUptime()
        let device = device(uptime: uptime)
        _ = try await device.read("/lfs1/dir/data.bin", at: 0)
        var group = try await device.group()
        XCTAssertTrue(group.hasOpenFile)
        let closed = try await device.send(.write, 4)
        XCTAssertEqual(closed, [:])
        group = try await device.group()
        XCTAssertFalse(group.hasOpenFile)

        _ = try await device.read("/lfs1/dir/data.bin", at: 0)
        uptime.advance(by: .seconds(5))
        _ = try await device.send(.read, 3)
        group = try await device.group()
        XCTAssertFalse(group.hasOpenFile, "closed after 4 s without requests")
    }

    func testCloseCanBeLeftOut() async throws {
        let answer = try await device(closeSupported: false).send(.write, 4)
        XCTAssertEqual(answer, ["rc": 8])
    }

    func testWithoutTheGroupEveryCommandIsUnsupported() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(fileSystem: nil))
        let answer = try await device.respond(to: TestFrames.request(.read, group: .fileSystem, command: 1, payload: ["name": "/lfs1/a"]))
        XCTAssertEqual(answer.payload, ["rc": 8])
    }
}
