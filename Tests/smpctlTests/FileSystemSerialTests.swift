import Foundation
import SMPSimulator
import XCTest

/// `smpctl fs put` and `fs get` over a pseudo-terminal served by the virtual device with Zephyr's
/// serial defaults (384-byte buffers): a clean line, and a line with log lines and CRC errors.
final class FileSystemSerialTests: XCTestCase {
    private let content = FileSystemTestFolder.content(40_000, seed: 0x5E)

    private func roundTrip(_ served: ServedSerialDevice, window: [String], file: StaticString = #filePath, line: UInt = #line) async throws {
        let folder = try FileSystemTestFolder(self)
        let local = try folder.write("up.bin", content)
        let put = try await SMPCtl.run(["fs", "put", local, "/lfs1/up.bin", "--verify", "--json", "-c", served.connection] + window, timeout: 120)
        assertExit(put, 0, file: file, line: line)
        let stored = await served.device.file("/lfs1/up.bin")
        XCTAssertEqual(stored, content, "put", file: file, line: line)
        let target = (folder.path as NSString).appendingPathComponent("down.bin")
        let get = try await SMPCtl.run(["fs", "get", "/lfs1/up.bin", target, "--verify", "--json", "-c", served.connection] + window, timeout: 120)
        assertExit(get, 0, file: file, line: line)
        let done = try XCTUnwrap(try UploadOutput(get).done, "\(get)", file: file, line: line)
        XCTAssertEqual(done["chunkSize"]?.int, SimulatedFileSystemConfiguration().chunkSize(bufferSize: 384), "\(get)", file: file, line: line)
        XCTAssertEqual(folder.read("down.bin"), content, "get", file: file, line: line)
    }

    func testPutAndGetOnACleanLineWithWindowOneAndTheDefault() async throws {
        for window in [["--window", "1"], []] {
            let served = try await startSerialDevice()
            try await roundTrip(served, window: window)
        }
    }

    func testPutAndGetOnALineWithLogLinesAndCRCErrors() async throws {
        let served = try await startSerialDevice(
            options: PTYSimulatorOptions(baudRate: 460_800, logLinesPerSecond: 30, logLinesInsideFrames: true, crcErrors: 0.02, seed: 7))
        try await roundTrip(served, window: [])
    }
}
