import Foundation
import SMP
import SMPSimulator
import XCTest

/// `smpctl fs get/put` and the file inputs of `image`/`package` with hostile or unusual local
/// files (the built binary against the virtual device): devices and FIFOs as destinations and
/// inputs, a directory destination, links planted at `LOCAL.part`, huge inputs.
final class FileSystemLocalFileTests: XCTestCase {
    private let content = FileSystemTestFolder.content(5000)

    private func device() async throws -> ServedDevice {
        try await startDevice(.fileSystemDevice(files: ["/lfs1/data.bin": content]))
    }

    private func path(_ folder: FileSystemTestFolder, _ name: String) -> String {
        (folder.path as NSString).appendingPathComponent(name)
    }

    func testGetToDevNullWritesThroughAndLeavesTheDevice() async throws {
        let served = try await device()
        let run = try await SMPCtl.run(["fs", "get", "/lfs1/data.bin", "/dev/null", "--json", "-c", served.endpoint])
        assertExit(run, 0)
        var info = stat()
        XCTAssertEqual(lstat("/dev/null", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "/dev/null is still a character device")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/dev/null.part"))
    }

    func testGetToAFIFOStreamsIntoItAndRefusesOneWithoutReader() async throws {
        let served = try await device()
        let folder = try FileSystemTestFolder(self)
        let fifo = path(folder, "pipe")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let refused = try await SMPCtl.run(["fs", "get", "/lfs1/data.bin", fifo, "-c", served.endpoint], timeout: 10)
        assertExit(refused, 65)
        assertStderr(refused, contains: "no process reads the FIFO")

        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }
        let run = try await SMPCtl.run(["fs", "get", "/lfs1/data.bin", fifo, "-c", served.endpoint])
        assertExit(run, 0)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case let count = read(reader, &buffer, buffer.count), count > 0 { received += buffer.prefix(count) }
        XCTAssertEqual(received, content)
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is still a FIFO")
    }

    func testGetIntoAFolderUsesTheRemoteName() async throws {
        let served = try await device()
        let folder = try FileSystemTestFolder(self)
        let run = try await SMPCtl.run(["fs", "get", "/lfs1/data.bin", folder.path, "--json", "-c", served.endpoint])
        assertExit(run, 0)
        XCTAssertEqual(folder.read("data.bin"), content)
        XCTAssertTrue(run.stdout.contains(path(folder, "data.bin")), "the JSON names the file written\n\(run)")
        let missing = try await SMPCtl.run(["fs", "get", "/lfs1/data.bin", path(folder, "nofolder/"), "-c", served.endpoint])
        assertExit(missing, 65)
        assertStderr(missing, contains: "the folder does not exist")
    }

    func testALinkPlantedAtThePartFileIsNotWrittenThrough() async throws {
        let served = try await device()
        let folder = try FileSystemTestFolder(self)
        let victim = try folder.write("victim", Array("precious".utf8))
        XCTAssertEqual(symlink(victim, path(folder, "got.bin.part")), 0)
        let run = try await SMPCtl.run(["fs", "get", "/lfs1/data.bin", path(folder, "got.bin"), "-c", served.endpoint])
        assertExit(run, 0)
        assertStderr(run, contains: "got.bin.part is not continued: it is a symbolic link")
        XCTAssertEqual(folder.read("victim"), Array("precious".utf8))
        XCTAssertEqual(folder.read("got.bin"), content)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["got.bin", "got.bin.part", "victim"])
    }

    func testARefusedDownloadLeavesNothingBehind() async throws {
        let served = try await device()
        let folder = try FileSystemTestFolder(self)
        try folder.write("gone.bin.part", [1, 2, 3])
        let run = try await SMPCtl.run(["fs", "get", "/lfs1/gone.bin", path(folder, "gone.bin"), "-c", served.endpoint])
        assertExit(run, 2)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "the stale part file of a file the device no longer has is removed")
    }

    func testVerifyNeedsARegularFile() async throws {
        let served = try await device()
        let run = try await SMPCtl.run(["fs", "get", "/lfs1/data.bin", "/dev/null", "--verify", "-c", served.endpoint])
        assertExit(run, 64)
        assertStderr(run, contains: "--verify needs a regular local file: /dev/null is a character device")
    }

    func testInputsThatAreNotRegularFilesAreRefusedAtOnce() async throws {
        let served = try await device()
        let folder = try FileSystemTestFolder(self)
        let fifo = path(folder, "pipe")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let commands: [[String]] = [
            ["fs", "put", fifo, "/lfs1/x", "-c", served.endpoint], ["fs", "put", "/dev/zero", "/lfs1/x", "-c", served.endpoint],
            ["image", "info", fifo], ["image", "info", "/dev/zero"], ["image", "upload", fifo, "-c", served.endpoint],
            ["package", "info", fifo], ["upgrade", fifo, "-c", served.endpoint],
        ]
        for arguments in commands {
            let run = try await SMPCtl.run(arguments, timeout: 10)
            XCTAssertFalse(run.timedOut, "\(run)")
            assertExit(run, 65)
            XCTAssertTrue(run.stderr.contains("not a regular file"), "\(run)")
        }
    }

    func testSimulateRefusesAFIFOToPreload() async throws {
        let folder = try FileSystemTestFolder(self)
        let fifo = path(folder, "pipe")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let run = try await SMPCtl.run(["simulate", "--udp", "127.0.0.1:0", "--fs-file", "/lfs1/a=\(fifo)"], timeout: 10)
        XCTAssertFalse(run.timedOut, "\(run)")
        assertExit(run, 64)
        assertStderr(run, contains: "it is a FIFO (named pipe), not a regular file")
    }

    /// Refused from its size: under a 1 GiB address space, a run that read the file whole would fail.
    func testAFourGibibyteImageIsRefusedWithoutBeingRead() async throws {
        let folder = try FileSystemTestFolder(self)
        let big = try folder.write("big.bin", [])
        XCTAssertEqual(truncate(big, 4 << 30), 0, "a sparse 4 GiB file")
        for arguments in [["image", "info", big], ["package", "info", big], ["image", "upload", big, "-c", "udp:127.0.0.1:9"]] {
            let run = try await SMPCtl.run(arguments, timeout: 20, addressSpaceLimit: 1 << 30)
            assertExit(run, 65)
        }
        let info = try await SMPCtl.run(["image", "info", big])
        assertStderr(info, contains: "not an MCUboot image: magic 0x00000000 at offset 0")
    }
}
