import CBOR
import SMP
import SMPSimulator
import XCTest

/// Upload (docs/protocol/file-system.md §9.2): offset 0 truncates, the answer is the next offset, a wrong offset is
/// FILE_OFFSET_NOT_VALID with `len`, an upload without open file appends at the file's size,
/// and the open, write and capacity errors.
final class FileSystemUploadTests: XCTestCase {
    private let content = FileSystemTestDevice.bytes(1000)

    private func device(_ configuration: SimulatedFileSystemConfiguration = SimulatedFileSystemConfiguration(
        files: ["/lfs1/old.bin": FileSystemTestDevice.bytes(3000, seed: 9)], directories: ["/lfs1/dir"]
    )) -> FileSystemTestDevice {
        FileSystemTestDevice(configuration)
    }

    func testUploadWritesTheFileAndClosesItAtTheEnd() async throws {
        let device = device()
        let answer = try await device.upload("/lfs1/dir/new.bin", content)
        XCTAssertEqual(answer, ["off": .integer(content.count)])
        let group = try await device.group()
        XCTAssertEqual(group.files["/lfs1/dir/new.bin"], content)
        XCTAssertFalse(group.hasOpenFile)
    }

    func testOffsetZeroTruncatesALongerFile() async throws {
        let device = device()
        _ = try await device.upload("/lfs1/old.bin", content)
        let group = try await device.group()
        XCTAssertEqual(group.files["/lfs1/old.bin"], content)
    }

    func testAWrongOffsetIsAnErrorWithTheExpectedOffset() async throws {
        let device = device()
        _ = try await device.write("/lfs1/a.bin", at: 0, Array(content[0..<100]), length: content.count)
        let answer = try await device.write("/lfs1/a.bin", at: 300, Array(content[300..<400]))
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 11)
        XCTAssertEqual(answer["len"], 100)
        let group = try await device.group()
        XCTAssertFalse(group.hasOpenFile, "the error closes the upload")
        let resumed = try await device.write("/lfs1/a.bin", at: 100, Array(content[100..<200]))
        XCTAssertEqual(resumed, ["off": 200], "without an open file the device continues at the file's size")
    }

    func testWithoutOpenFileTheUploadAppendsAtTheFilesSize() async throws {
        let device = device()
        _ = try await device.write("/lfs1/a.bin", at: 0, Array(content[0..<400]), length: content.count)
        _ = try await device.send(.write, 4)
        var answer = try await device.write("/lfs1/a.bin", at: 500, Array(content[500..<600]))
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 11)
        XCTAssertEqual(answer["len"], 400)
        answer = try await device.write("/lfs1/a.bin", at: 400, Array(content[400...]))
        XCTAssertEqual(answer, ["off": .integer(content.count)])
        var group = try await device.group()
        XCTAssertEqual(group.files["/lfs1/a.bin"], content)
        XCTAssertTrue(group.hasOpenFile, "the length was lost with the first open file: it stays open")
        _ = try await device.send(.write, 4)
        group = try await device.group()
        XCTAssertFalse(group.hasOpenFile)
    }

    func testAnUploadOfAnotherFileReplacesTheOpenOne() async throws {
        let device = device()
        _ = try await device.write("/lfs1/a.bin", at: 0, Array(content[0..<100]), length: content.count)
        _ = try await device.write("/lfs1/b.bin", at: 0, Array(content[0..<100]), length: content.count)
        let answer = try await device.write("/lfs1/a.bin", at: 100, Array(content[100..<200]))
        XCTAssertEqual(answer, ["off": 200], "a.bin reopened at its size")
    }

    func testOpenErrors() async throws {
        let device = device(SimulatedFileSystemConfiguration(mountPoints: ["/lfs1", "/rom"], readOnlyMountPoints: ["/rom"], directories: ["/lfs1/dir"]))
        var answer = try await device.write("/nand/a.bin", at: 0, [1], length: 1)
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 14, "no such mount point")
        answer = try await device.write("/lfs1/nodir/a.bin", at: 0, [1], length: 1)
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 14, "a missing directory is -ENOENT too")
        answer = try await device.write("/rom/a.bin", at: 0, [1], length: 1)
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 15)
        answer = try await device.write("/lfs1/dir", at: 0, [1], length: 1)
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 1, "opening a directory for writing is EISDIR: UNKNOWN, as on Zephyr")
        answer = try await device.write("/lfs1/a.bin", at: 0, [1])
        XCTAssertEqual(answer, ["rc": 3], "len is required at offset 0")
        answer = try await device.send(.write, 0, ["off": 0, "data": "text", "name": "/lfs1/a.bin", "len": 4])
        XCTAssertEqual(answer, ["rc": 3], "data must be a byte string")
    }

    func testWritesPastTheCapacityFail() async throws {
        let device = device(SimulatedFileSystemConfiguration(capacity: 1500, files: ["/lfs1/old.bin": FileSystemTestDevice.bytes(1000)]))
        let answer = try await device.upload("/lfs1/new.bin", content)
        XCTAssertEqual(FileSystemTestDevice.errorCode(answer), 10)
        let group = try await device.group()
        XCTAssertEqual(group.files["/lfs1/new.bin"]?.count, 500, "written up to the capacity")
    }

    func testAnEmptyFile() async throws {
        let device = device()
        let answer = try await device.write("/lfs1/empty", at: 0, [], length: 0)
        XCTAssertEqual(answer, ["off": 0])
        let status = try await device.send(.read, 1, ["name": "/lfs1/empty"])
        XCTAssertEqual(status, ["len": 0])
    }

    func testLegacyFlavourAddsRCAndTranslatesErrors() async throws {
        let device = FileSystemTestDevice(flavour: .legacy)
        var answer = try await device.write("/lfs1/a.bin", at: 0, Array(content[0..<100]), length: content.count)
        XCTAssertEqual(answer, ["off": 100, "rc": 0])
        answer = try await device.write("/lfs1/a.bin", at: 300, Array(content[300..<400]))
        XCTAssertEqual(answer["len"], 100, "len comes with the translated error")
        XCTAssertEqual(answer["rc"], .integer(SMPGroupError(group: 8, code: 11).legacyReturnCode.rawValue))
        XCTAssertNil(answer["err"])
        answer = try await device.send(.read, 1, ["name": "/lfs1/missing"])
        XCTAssertEqual(answer, ["rc": .integer(SMPReturnCode.noEntry.rawValue)])
    }
}
