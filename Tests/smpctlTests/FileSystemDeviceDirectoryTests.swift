import Foundation
import SMP
import SMPSimulator
import XCTest

/// `fs put` and the device's directories and empty files (the built binary against the virtual
/// device, which answers as Zephyr does): a destination ending in `/` or naming a directory, a
/// missing directory or mount point, a file used as a directory, an empty file over a full one.
final class FileSystemDeviceDirectoryTests: XCTestCase {
    func testADirectoryDestinationGetsTheLocalName() async throws {
        let served = try await startDevice(.fileSystemDevice())
        let folder = try FileSystemTestFolder(self)
        let local = try folder.write("notes.txt", Array("notes".utf8))
        for (remote, stored) in [("/lfs1/dir/", "/lfs1/dir/notes.txt"), ("/lfs1", "/lfs1/notes.txt")] {
            let run = try await SMPCtl.run(["fs", "put", local, remote, "--json", "-c", served.endpoint])
            assertExit(run, 0)
            XCTAssertTrue(run.stdout.contains("\"remote\":\"\(stored)\""), "\(run)")
            let file = await served.device.file(stored)
            XCTAssertEqual(file, Array("notes".utf8), stored)
        }
        let files = await (served.device.group(.fileSystem) as? FileSystemGroup)?.files.keys.sorted()
        XCTAssertEqual(files, ["/lfs1/dir/notes.txt", "/lfs1/notes.txt"], "no file named after a directory")
    }

    func testMissingDirectoriesAndMountPointsAreNamed() async throws {
        let served = try await startDevice(.fileSystemDevice(files: ["/lfs1/plain.bin": [1]]))
        let folder = try FileSystemTestFolder(self)
        let local = try folder.write("a.bin", [1, 2, 3])
        let cases = [
            ("/lfs1/nodir/a.bin", "the directory /lfs1/nodir does not exist on the device"),
            ("/lfs1/nodir/deeper/a.bin", "the directory /lfs1/nodir does not exist on the device"),
            ("/lfs1/nodir/", "the directory /lfs1/nodir does not exist on the device"),
            ("/sd/a.bin", "no file system is mounted at /sd on the device"),
            ("/a.bin", "/a.bin is not inside a mounted file system"),
            ("/lfs1/plain.bin/a.bin", "/lfs1/plain.bin is a file on the device, not a directory"),
        ]
        for (remote, message) in cases {
            let run = try await SMPCtl.run(["fs", "put", local, remote, "--json", "-c", served.endpoint])
            assertExit(run, 2)
            assertStderr(run, contains: message)
            XCTAssertTrue(run.stdout.contains("\"name\":\"device-error\""), "\(run)")
        }
    }

    func testAnEmptyFileOverAFullOneIsAnErrorNotASilentSuccess() async throws {
        let served = try await startDevice(.fileSystemDevice(files: ["/lfs1/full.bin": [1, 2, 3, 4]]))
        let folder = try FileSystemTestFolder(self)
        let empty = try folder.write("empty.bin", [])
        let run = try await SMPCtl.run(["fs", "put", empty, "/lfs1/full.bin", "-c", served.endpoint])
        assertExit(run, 2)
        assertStderr(run, contains: "the device kept the 4 bytes of /lfs1/full.bin", "delete /lfs1/full.bin on the device first")
        let created = try await SMPCtl.run(["fs", "put", empty, "/lfs1/new.bin", "-c", served.endpoint])
        assertExit(created, 0)
        let file = await served.device.file("/lfs1/new.bin")
        XCTAssertEqual(file, [])
    }
}
