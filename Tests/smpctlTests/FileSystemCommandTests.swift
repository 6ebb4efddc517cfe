import Foundation
import SMP
import SMPSimulator
import XCTest

/// `smpctl fs …` (the built binary) over UDP against the virtual device: put and get with
/// `--verify`, resume both ways, standard output, stat, hash, types, close, JSON and errors.
final class FileSystemCommandTests: XCTestCase {
    private let content = FileSystemTestFolder.content(120_000)

    private func done(_ run: SMPCtlRun, file: StaticString = #filePath, line: UInt = #line) throws -> JSONNode {
        assertExit(run, 0, file: file, line: line)
        return try XCTUnwrap(try UploadOutput(run, file: file, line: line).done, "no done document\n\(run)", file: file, line: line)
    }

    func testPutThenGetWithVerify() async throws {
        let served = try await startDevice(.fileSystemDevice())
        let folder = try FileSystemTestFolder(self)
        let local = try folder.write("data.bin", content)
        let put = try done(try await SMPCtl.run(["fs", "put", local, "/lfs1/dir/data.bin", "--verify", "--json", "-c", served.endpoint]))
        XCTAssertEqual(put["size"]?.int, content.count)
        XCTAssertEqual(put["verified"]?["type"]?.string, "sha256")
        XCTAssertEqual(put["verified"]?["match"]?.bool, true)
        XCTAssertTrue(put["resumedFrom"]?.isNull == true, "\(put)")
        let stored = await served.device.file("/lfs1/dir/data.bin")
        XCTAssertEqual(stored, content)

        let target = (folder.path as NSString).appendingPathComponent("back.bin")
        let get = try done(try await SMPCtl.run(["fs", "get", "/lfs1/dir/data.bin", target, "--verify", "--json", "--window", "2", "-c", served.endpoint]))
        XCTAssertEqual(get["size"]?.int, content.count)
        XCTAssertEqual(get["window"]?.int, 2)
        XCTAssertEqual(get["verified"]?["match"]?.bool, true)
        XCTAssertEqual(folder.read("back.bin"), content)
        XCTAssertNil(folder.read("back.bin.part"), "the part file was renamed")
    }

    func testHumanOutputAndGetToStandardOutput() async throws {
        let text = Array("hello from the device\n".utf8)
        let served = try await startDevice(.fileSystemDevice(files: ["/lfs1/hello.txt": text]))
        let get = try await SMPCtl.run(["fs", "get", "/lfs1/hello.txt", "-", "-c", served.endpoint])
        assertExit(get, 0)
        XCTAssertEqual(get.stdout, "hello from the device\n")
        let folder = try FileSystemTestFolder(self)
        let local = try folder.write("up.bin", content)
        let put = try await SMPCtl.run(["fs", "put", local, "/lfs1/up.bin", "--verify", "-c", served.endpoint])
        assertExit(put, 0)
        XCTAssertTrue(put.stdout.contains("put \(local) to /lfs1/up.bin: 120000 bytes"), "\(put)")
        XCTAssertTrue(put.stdout.contains("verified: the device's sha256 matches"), "\(put)")
        XCTAssertEqual(put.stderr, "", "into a pipe, a put shorter than 10 s prints no progress, and the result says the rest: \(put)")
    }

    func testPutResumesWhatTheDeviceHoldsAndRestartStartsOver() async throws {
        let served = try await startDevice(.fileSystemDevice(files: ["/lfs1/data.bin": Array(content.prefix(50_000))]))
        let local = try FileSystemTestFolder(self).write("data.bin", content)
        let resumed = try done(try await SMPCtl.run(["fs", "put", local, "/lfs1/data.bin", "--json", "-c", served.endpoint]))
        XCTAssertEqual(resumed["resumedFrom"]?.int, 50_000)
        var stored = await served.device.file("/lfs1/data.bin")
        XCTAssertEqual(stored, content)
        let group = await served.device.group(.fileSystem) as? FileSystemGroup
        XCTAssertEqual(group?.hasOpenFile, false, "put closes the file the device could not close itself")

        let restarted = try done(try await SMPCtl.run(["fs", "put", local, "/lfs1/data.bin", "--restart", "--json", "-c", served.endpoint]))
        XCTAssertTrue(restarted["resumedFrom"]?.isNull == true, "\(restarted)")
        stored = await served.device.file("/lfs1/data.bin")
        XCTAssertEqual(stored, content)
    }

    func testPutDoesNotResumeADifferentPrefix() async throws {
        var other = Array(content.prefix(50_000))
        other[49_000] ^= 0xFF
        let served = try await startDevice(.fileSystemDevice(files: ["/lfs1/data.bin": other]))
        let local = try FileSystemTestFolder(self).write("data.bin", content)
        let run = try done(try await SMPCtl.run(["fs", "put", local, "/lfs1/data.bin", "--json", "-c", served.endpoint]))
        XCTAssertTrue(run["resumedFrom"]?.isNull == true, "\(run)")
        let stored = await served.device.file("/lfs1/data.bin")
        XCTAssertEqual(stored, content)
    }

    func testGetResumesAMatchingPartAndRestartsAWrongOne() async throws {
        let served = try await startDevice(.fileSystemDevice(files: ["/lfs1/data.bin": content]))
        let folder = try FileSystemTestFolder(self)
        let target = (folder.path as NSString).appendingPathComponent("data.bin")
        try folder.write("data.bin.part", Array(content.prefix(70_000)))
        let resumed = try done(try await SMPCtl.run(["fs", "get", "/lfs1/data.bin", target, "--json", "-c", served.endpoint]))
        XCTAssertEqual(resumed["resumedFrom"]?.int, 70_000)
        XCTAssertEqual(folder.read("data.bin"), content)

        var wrong = Array(content.prefix(70_000))
        wrong[10] ^= 1
        try folder.write("data.bin.part", wrong)
        let restarted = try done(try await SMPCtl.run(["fs", "get", "/lfs1/data.bin", target, "--json", "-c", served.endpoint]))
        XCTAssertTrue(restarted["resumedFrom"]?.isNull == true, "\(restarted)")
        XCTAssertEqual(folder.read("data.bin"), content)
    }

    func testVerifyFailsWhenTheDevicesHashDiffers() async throws {
        let lying = LyingHashGroup(inner: FileSystemGroup(configuration: SimulatedFileSystemConfiguration()))
        let served = try await startDevice(.fileSystemDevice(), groups: [lying])
        let local = try FileSystemTestFolder(self).write("data.bin", content)
        let run = try await SMPCtl.run(["fs", "put", local, "/lfs1/data.bin", "--verify", "--restart", "-c", served.endpoint])
        assertExit(run, 2)
        assertStderr(run, contains: "verification failed", "sha256")
    }

    func testStatHashTypesAndClose() async throws {
        let served = try await startDevice(.fileSystemDevice(files: ["/lfs1/check": Array("123456789".utf8)]))
        let stat = try await SMPCtl.run(["fs", "stat", "/lfs1/check", "--json", "-c", served.endpoint])
        assertSuccess(stat)
        XCTAssertEqual(try stat.jsonDocument()["size"]?.int, 9)
        let crc = try await SMPCtl.run(["fs", "hash", "/lfs1/check", "--json", "-c", served.endpoint])
        assertSuccess(crc)
        XCTAssertEqual(try crc.jsonDocument()["hash"]?.string, "cbf43926")
        XCTAssertEqual(try crc.jsonDocument()["type"]?.string, "crc32")
        let range = try await SMPCtl.run(["fs", "hash", "/lfs1/check", "--type", "sha256", "--offset", "2", "--length", "3", "-c", served.endpoint])
        assertSuccess(range)
        XCTAssertEqual(range.stdout, "sha256 \(Hex.string(SHA256Hash.digest(Array("345".utf8))))  /lfs1/check [2, 5)\n")
        let types = try await SMPCtl.run(["fs", "types", "--json", "-c", served.endpoint])
        assertSuccess(types)
        XCTAssertEqual(try types.jsonDocument()["types"]?.array?.compactMap { $0["name"]?.string }, ["crc32", "sha256"])
        let close = try await SMPCtl.run(["fs", "close", "--json", "-c", served.endpoint])
        assertSuccess(close)
        XCTAssertEqual(try close.jsonDocument()["closed"]?.bool, true)
    }

    func testErrors() async throws {
        let served = try await startDevice(.fileSystemDevice())
        let folder = try FileSystemTestFolder(self)
        let local = try folder.write("a.bin", [1, 2, 3])

        var run = try await SMPCtl.run(["fs", "get", "/lfs1/missing", (folder.path as NSString).appendingPathComponent("m"), "--json", "-c", served.endpoint])
        _ = try assertErrorDocument(run, name: "device-error", code: 2)
        XCTAssertEqual(try run.jsonDocument()["error"]?["device"]?["rc"]?.int, 3)
        assertStderr(run, contains: "FS_MGMT_ERR_FILE_NOT_FOUND")
        XCTAssertFalse(FileManager.default.fileExists(atPath: (folder.path as NSString).appendingPathComponent("m.part")), "no empty .part is left")

        run = try await SMPCtl.run(["fs", "put", (folder.path as NSString).appendingPathComponent("nothing"), "/lfs1/x", "-c", served.endpoint])
        assertExit(run, 65)
        assertStderr(run, contains: "cannot open", "No such file or directory")

        run = try await SMPCtl.run(["fs", "put", folder.path, "/lfs1/x", "-c", served.endpoint])
        assertExit(run, 65)
        assertStderr(run, contains: "it is a directory, not a regular file")

        run = try await SMPCtl.run(["fs", "put", local, "/sd/x", "-c", served.endpoint])
        assertExit(run, 2)
        assertStderr(run, contains: "FS_MGMT_ERR_MOUNT_POINT_NOT_FOUND")

        run = try await SMPCtl.run(["fs", "stat", "/lfs1/dir", "-c", served.endpoint])
        assertExit(run, 2)
        assertStderr(run, contains: "FS_MGMT_ERR_FILE_IS_DIRECTORY")

        run = try await SMPCtl.run(["fs", "hash", "/lfs1/dir/x", "--length", "0", "-c", served.endpoint])
        assertExit(run, 64)

        let requests = await served.requests
        run = try await SMPCtl.run(["fs", "put", local, "lfs1/x", "-c", served.endpoint])
        assertExit(run, 64)
        assertStderr(run, contains: "the remote path \"lfs1/x\" is not absolute")
        let requestsAfter = await served.requests
        XCTAssertEqual(requestsAfter, requests, "a relative path is refused before anything is sent")
    }

    func testReadOnlyFileSystem() async throws {
        var configuration = VirtualDeviceConfiguration.fileSystemDevice()
        configuration.fileSystem?.readOnlyMountPoints = ["/lfs1"]
        let served = try await startDevice(configuration)
        let local = try FileSystemTestFolder(self).write("a.bin", [1, 2, 3])
        let run = try await SMPCtl.run(["fs", "put", local, "/lfs1/a.bin", "-c", served.endpoint])
        assertExit(run, 2)
        assertStderr(run, contains: "FS_MGMT_ERR_READ_ONLY_FILESYSTEM")
    }

    func testADeviceWithoutTheGroup() async throws {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.fileSystem = nil
        let served = try await startDevice(configuration)
        let run = try await SMPCtl.run(["fs", "get", "/lfs1/a", "-", "--json", "-c", served.endpoint])
        _ = try assertErrorDocument(run, name: "device-error", code: 2)
        assertStderr(run, contains: "MGMT_ERR_ENOTSUP", "CONFIG_MCUMGR_GRP_FS")
    }
}
