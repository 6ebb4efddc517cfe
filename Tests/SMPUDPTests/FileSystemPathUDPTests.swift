import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// What the library makes of the device's answers about paths, over real UDP against the virtual
/// device (which answers as Zephyr's fs_mgmt does): path states, a directory as an upload's
/// destination, the diagnosis of an upload's terse path errors, and an empty file put over a full one.
final class FileSystemPathUDPTests: XCTestCase {
    private func link(files: [String: [UInt8]] = [:]) async throws -> SimulatorLink {
        let fileSystem = SimulatedFileSystemConfiguration(files: files, directories: ["/lfs1/dir"])
        return try await SimulatorLink.start(configuration: VirtualDeviceConfiguration(fileSystem: fileSystem))
    }

    func testPathStates() async throws {
        let link = try await link(files: ["/lfs1/dir/a.bin": [1, 2, 3]])
        let expected: [(String, RemotePathState)] = [
            ("/lfs1/dir/a.bin", .file(size: 3)), ("/lfs1/dir", .directory), ("/lfs1", .directory), ("/lfs1/dir/b.bin", .missing),
        ]
        for (path, state) in expected {
            let answer = try await RemotePathState.query(link.client, path: path)
            XCTAssertEqual(answer, state, path)
        }
        await link.stop()
    }

    func testADirectoryDestinationGetsTheLocalName() async throws {
        let link = try await link(files: ["/lfs1/old.txt": [1]])
        let cases: [(String, String, RemotePathState?)] = [
            ("/lfs1/dir/", "/lfs1/dir/notes.txt", nil), ("/lfs1/dir", "/lfs1/dir/notes.txt", nil), ("/lfs1", "/lfs1/notes.txt", nil),
            ("/lfs1/old.txt", "/lfs1/old.txt", .file(size: 1)), ("/lfs1/new.txt", "/lfs1/new.txt", .missing),
        ]
        for (remote, destination, state) in cases {
            let resolved = try await RemoteFilePath.destination(remote, localPath: "some/folder/notes.txt", client: link.client)
            XCTAssertEqual(resolved.path, destination, remote)
            XCTAssertEqual(resolved.state, state, remote)
        }
        await link.stop()
    }

    func testMissingDirectoriesMountPointsAndFilesInThePathAreNamed() async throws {
        let link = try await link(files: ["/lfs1/plain.bin": [1]])
        let cases: [(String, RemotePathDiagnosis.Problem, String)] = [
            ("/lfs1/nodir/a.bin", .missingDirectory(missing: "/lfs1/nodir", existing: "/lfs1"), "FS_MGMT_ERR_MOUNT_POINT_NOT_FOUND"),
            ("/lfs1/nodir/deeper/a.bin", .missingDirectory(missing: "/lfs1/nodir", existing: "/lfs1"), "FS_MGMT_ERR_MOUNT_POINT_NOT_FOUND"),
            ("/sd/a.bin", .noMountPoint("/sd"), "FS_MGMT_ERR_MOUNT_POINT_NOT_FOUND"),
            ("/a.bin", .notInMountPoint, "FS_MGMT_ERR_MOUNT_POINT_NOT_FOUND"),
            ("/lfs1/plain.bin/a.bin", .notADirectory("/lfs1/plain.bin"), "FS_MGMT_ERR_UNKNOWN"),
        ]
        for (path, problem, name) in cases {
            do {
                _ = try await FileSystemUpload(client: link.client, name: path).upload(from: [1, 2, 3] as [UInt8])
                XCTFail("\(path) was accepted")
            } catch {
                let diagnosis = await RemotePathDiagnosis.diagnose(error, path: path, client: link.client)
                XCTAssertEqual(diagnosis?.problem, problem, path)
                XCTAssertEqual(diagnosis?.groupError.name, name, path)
            }
        }
        await link.stop()
    }

    func testOnlyPathErrorsAreDiagnosed() async throws {
        let link = try await link(files: ["/lfs1/dir/a.bin": [1]])
        let diagnosis = await RemotePathDiagnosis.diagnose(CancellationError(), path: "/lfs1/x/a.bin", client: link.client)
        XCTAssertNil(diagnosis, "an interruption is not a path problem")
        let request = SMPRequestSummary(FileStatus(name: "/lfs1/dir/a.bin").request)
        let full = SMPError.device(.groupError(SMPGroupError(group: 8, code: 10)), request: request)
        let notPath = await RemotePathDiagnosis.diagnose(full, path: "/lfs1/x/a.bin", client: link.client)
        XCTAssertNil(notPath, "a full file system is not a path problem")
        // A path error whose folders all exist tells nothing more than the device's answer.
        let existing = SMPError.device(.groupError(SMPGroupError(group: 8, code: 14)), request: request)
        let unexplained = await RemotePathDiagnosis.diagnose(existing, path: "/lfs1/dir/a.bin", client: link.client)
        XCTAssertNil(unexplained)
        await link.stop()
    }

    func testAnEmptyFileOverAFullOneFailsAndANewEmptyFileIsConfirmed() async throws {
        let link = try await link(files: ["/lfs1/full.bin": [1, 2, 3, 4]])
        do {
            _ = try await FileSystemUpload(client: link.client, name: "/lfs1/full.bin").upload(from: [] as [UInt8])
            XCTFail("an empty file over a full one succeeded")
        } catch let error as TransferVerificationError {
            XCTAssertEqual(error, .notEmptied(path: "/lfs1/full.bin", size: 4))
            XCTAssertTrue(error.description.hasPrefix("the device kept the 4 bytes of /lfs1/full.bin"), error.description)
            XCTAssertNotNil(error.hint)
        }
        let created = try await FileSystemUpload(client: link.client, name: "/lfs1/new.bin").upload(from: [] as [UInt8])
        XCTAssertEqual(created.emptyFileConfirmed, true)
        let stored = (await link.device.group(.fileSystem) as? FileSystemGroup)?.files["/lfs1/new.bin"]
        XCTAssertEqual(stored, [])
        let full = try await FileSystemUpload(client: link.client, name: "/lfs1/full.bin").upload(from: [9] as [UInt8])
        XCTAssertNil(full.emptyFileConfirmed, "only an empty file is checked so")
        await link.stop()
    }
}
