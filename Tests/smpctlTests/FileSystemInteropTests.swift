import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// smpctl and smpmgr (PyPI, an independent implementation) on the same virtual device's file
/// system: what one tool puts, the other gets byte for byte, and smpmgr reads the device's
/// status, hash and supported types answers. Served on UDP port 1337, the one smpmgr reaches.
final class FileSystemInteropTests: XCTestCase {
    private let content = FileSystemTestFolder.content(70_000, seed: 0x1E7)

    private func assertRan(_ run: ProcessRunner.Result, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 0, "smpmgr \(what) failed\nstdout: \(run.stdout)\nstderr: \(run.stderr)", file: file, line: line)
    }

    func testSMPMgrGetsWhatSMPCtlPut() async throws {
        try await SMPMgr.require()
        let served = try await startDeviceForSMPMgr(.fileSystemDevice())
        let folder = try FileSystemTestFolder(self)
        let local = try folder.write("mine.bin", content)
        let put = try await SMPCtl.run(["fs", "put", local, "/lfs1/mine.bin", "-c", served.endpoint])
        assertExit(put, 0)
        let back = (folder.path as NSString).appendingPathComponent("theirs.bin")
        let download = try await SMPMgr.device(["file", "download", "/lfs1/mine.bin", back])
        assertRan(download, "file download")
        XCTAssertEqual(folder.read("theirs.bin"), content)
    }

    func testSMPCtlGetsWhatSMPMgrPut() async throws {
        try await SMPMgr.require()
        let served = try await startDeviceForSMPMgr(.fileSystemDevice())
        let folder = try FileSystemTestFolder(self)
        let local = try folder.write("theirs.bin", content)
        let upload = try await SMPMgr.device(["file", "upload", local, "/lfs1/theirs.bin"])
        assertRan(upload, "file upload")
        let stored = await served.device.file("/lfs1/theirs.bin")
        XCTAssertEqual(stored, content)
        let target = (folder.path as NSString).appendingPathComponent("mine.bin")
        let get = try await SMPCtl.run(["fs", "get", "/lfs1/theirs.bin", target, "--verify", "-c", served.endpoint])
        assertExit(get, 0)
        XCTAssertEqual(folder.read("mine.bin"), content)
    }

    func testSMPMgrReadsStatusHashAndTypes() async throws {
        try await SMPMgr.require()
        _ = try await startDeviceForSMPMgr(.fileSystemDevice(files: ["/lfs1/check": Array("123456789".utf8)]))
        let size = try await SMPMgr.device(["file", "read-size", "/lfs1/check"])
        assertRan(size, "file read-size")
        XCTAssertTrue(size.stdout.split(whereSeparator: \.isNewline).contains { $0.trimmingCharacters(in: .whitespaces) == "9" }, size.stdout)
        let hash = try await SMPMgr.device(["file", "get-hash", "/lfs1/check"])
        assertRan(hash, "file get-hash")
        XCTAssertTrue(hash.stdout.contains("type='crc32'") && hash.stdout.contains("output=\(0xCBF4_3926 as UInt32)"), hash.stdout)
        let types = try await SMPMgr.device(["file", "get-supported-hash-types"])
        assertRan(types, "file get-supported-hash-types")
        XCTAssertTrue(types.stdout.contains("'crc32'") && types.stdout.contains("'sha256'"), types.stdout)
    }
}
