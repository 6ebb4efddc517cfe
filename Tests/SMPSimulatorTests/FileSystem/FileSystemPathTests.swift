import CBOR
import SMP
import SMPSimulator
import XCTest

/// Paths as Zephyr 4.4's fs_mgmt on LittleFS answers them (checked on the native_sim `udp` and
/// `serial_fs` fixtures): `/` and mount points are directories; a trailing `/`, a directory or a
/// file used as a directory cannot be opened for writing (UNKNOWN); a missing directory is
/// MOUNT_POINT_NOT_FOUND on upload and FILE_NOT_FOUND on status; an empty first chunk does not
/// truncate the file.
final class FileSystemPathTests: XCTestCase {
    private let old = FileSystemTestDevice.bytes(300, seed: 7)

    private func device() -> FileSystemTestDevice {
        FileSystemTestDevice(SimulatedFileSystemConfiguration(files: ["/lfs1/old.bin": old], directories: ["/lfs1/dir"]))
    }

    private func statusCode(_ device: FileSystemTestDevice, _ name: String) async throws -> Int64? {
        FileSystemTestDevice.errorCode(try await device.send(.read, 1, ["name": .text(name)]))
    }

    func testUploadOpenErrors() async throws {
        let device = device()
        let cases: [(String, Int64, String)] = [
            ("/", 2, "fs_open refuses a name of one character"),
            ("/lfs1", 1, "a mount point is a directory: EISDIR"),
            ("/lfs1/", 1, "a trailing slash: EISDIR"),
            ("/lfs1/dir/", 1, "a directory with a trailing slash"),
            ("/lfs1/nodir/", 1, "a missing directory with a trailing slash: ENOTDIR"),
            ("/lfs1/old.bin/", 1, "a file with a trailing slash: ENOTDIR"),
            ("/lfs1/old.bin/x", 1, "a file used as a directory: ENOTDIR"),
            ("/lfs1/nodir/x", 14, "a missing directory: ENOENT, which fs_mgmt maps to MOUNT_POINT_NOT_FOUND"),
            ("/nofs/x", 14, "no such mount point"),
            ("//lfs1/x", 14, "the mount point must start the path exactly"),
        ]
        for (name, code, why) in cases {
            let answer = try await device.write(name, at: 0, [1], length: 1)
            XCTAssertEqual(FileSystemTestDevice.errorCode(answer), code, "\(name): \(why)")
        }
        let group = try await device.group()
        XCTAssertEqual(group.files.keys.sorted(), ["/lfs1/old.bin"], "nothing was created")
    }

    func testStatusOfDirectoriesAndMissingPaths() async throws {
        let device = device()
        let cases: [(String, Int64?)] = [
            ("/", 4), ("/lfs1", 4), ("/lfs1/", 4), ("/lfs1/dir", 4), ("/nofs", 3), ("/nofs/x", 3), ("/lfs1/nodir/x", 3),
            ("/lfs1/nodir/", 3), ("/lfs1/old.bin/", 1), ("/lfs1/old.bin/x", 1), ("/lfs1//old.bin", nil),
        ]
        for (name, code) in cases {
            let answer = try await statusCode(device, name)
            XCTAssertEqual(answer, code, name)
        }
        let download = try await device.read("/lfs1/old.bin/", at: 0)
        XCTAssertEqual(FileSystemTestDevice.errorCode(download), 1, "a download of a file named with a trailing slash")
    }

    func testRepeatedSlashesAfterTheMountPointCountAsOne() async throws {
        let device = device()
        _ = try await device.write("/lfs1//dir//new.bin", at: 0, [1, 2, 3], length: 3)
        let group = try await device.group()
        XCTAssertEqual(group.files["/lfs1/dir/new.bin"], [1, 2, 3])
    }

    func testAnEmptyUploadLeavesAnExistingFileAsItIs() async throws {
        let device = device()
        let answer = try await device.write("/lfs1/old.bin", at: 0, [], length: 0)
        XCTAssertEqual(answer, ["off": 0])
        var group = try await device.group()
        XCTAssertEqual(group.files["/lfs1/old.bin"], old, "Zephyr truncates only when the first chunk carries data")
        XCTAssertTrue(group.hasOpenFile, "an announced length of 0 never closes the file")
        _ = try await device.send(.write, 4)
        group = try await device.group()
        XCTAssertFalse(group.hasOpenFile)
    }

    func testAnEmptyUploadCreatesAMissingFile() async throws {
        let device = device()
        _ = try await device.write("/lfs1/dir/empty.bin", at: 0, [], length: 0)
        let group = try await device.group()
        XCTAssertEqual(group.files["/lfs1/dir/empty.bin"], [])
    }
}
