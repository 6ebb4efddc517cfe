import Foundation
import SMP
import SMPLocalFiles
import XCTest

/// The `.part` file of a download: created exclusively, never through a link or into something
/// planted there, synced and renamed into place, removed on failure unless a rerun can continue it.
final class PartialDownloadFileTests: XCTestCase {
    func testANewDownloadIsCreatedRenamedAndLeavesNothingElse() throws {
        let folder = try LocalFilesTestFolder(self)
        let previous = umask(0o027)
        defer { umask(previous) }
        let part = try PartialDownloadFile(destination: folder.path("got.bin"))
        XCTAssertEqual(part.path, folder.path("got.bin.part"))
        XCTAssertEqual(part.initialSize, 0)
        XCTAssertNil(part.ignoredPart)
        try part.write([4, 5, 6], at: 3)
        try part.write([1, 2, 3], at: 0)
        try part.finish(length: 6)
        XCTAssertEqual(folder.names, ["got.bin.part"], "nothing is at the destination before the download is complete")
        try part.commit()
        XCTAssertEqual(folder.names, ["got.bin"])
        XCTAssertEqual(folder.read("got.bin"), [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(folder.mode("got.bin").map { $0 & 0o777 }, 0o640, "mode 0666 less the umask")
    }

    func testAnInterruptedDownloadIsContinuedFromItsPartFile() throws {
        let folder = try LocalFilesTestFolder(self)
        try folder.write("got.bin.part", [9, 8, 7, 6])
        let part = try PartialDownloadFile(destination: folder.path("got.bin"))
        XCTAssertEqual(part.path, folder.path("got.bin.part"))
        XCTAssertEqual(part.initialSize, 4)
        let contents = try part.contents()
        XCTAssertEqual(try contents.read(offset: 0, length: contents.count), [9, 8, 7, 6])
    }

    func testASymbolicLinkAtThePartFileIsNeitherFollowedNorRemoved() throws {
        let folder = try LocalFilesTestFolder(self)
        let victim = try folder.write("victim", Array("secret".utf8))
        try folder.link("got.bin.part", to: victim)
        let part = try PartialDownloadFile(destination: folder.path("got.bin"))
        XCTAssertNotEqual(part.path, folder.path("got.bin.part"))
        XCTAssertEqual(part.initialSize, 0, "nothing is continued")
        XCTAssertTrue(part.ignoredPart?.contains("symbolic link") == true, "\(part.ignoredPart ?? "nil")")
        try part.write([1, 2], at: 0)
        try part.commit()
        XCTAssertEqual(folder.read("victim"), Array("secret".utf8), "the link's target is untouched")
        XCTAssertEqual(folder.read("got.bin"), [1, 2])
        XCTAssertEqual(folder.mode("got.bin.part").map { $0 & S_IFMT }, S_IFLNK, "the link is left as it is")
        XCTAssertEqual(folder.names, ["got.bin", "got.bin.part", "victim"])
    }

    func testAFIFOAtThePartFileDoesNotBlockAndIsLeftAlone() throws {
        let folder = try LocalFilesTestFolder(self)
        try folder.fifo("got.bin.part")
        let part = try PartialDownloadFile(destination: folder.path("got.bin"))
        XCTAssertTrue(part.ignoredPart?.contains("FIFO") == true, "\(part.ignoredPart ?? "nil")")
        part.abandon(keepingProgress: true)
        XCTAssertEqual(folder.names, ["got.bin.part"], "the scratch file is removed on failure, the FIFO stays")
    }

    func testAHardLinkAtThePartFileIsNotWrittenThrough() throws {
        let folder = try LocalFilesTestFolder(self)
        let victim = try folder.write("victim", [1, 1, 1])
        XCTAssertEqual(link(victim, folder.path("got.bin.part")), 0)
        let part = try PartialDownloadFile(destination: folder.path("got.bin"))
        XCTAssertTrue(part.ignoredPart?.contains("2 hard links") == true, "\(part.ignoredPart ?? "nil")")
        try part.write([2, 2, 2, 2], at: 0)
        try part.commit()
        XCTAssertEqual(folder.read("victim"), [1, 1, 1])
    }

    func testAnotherUsersPartFileIsNotContinued() throws {
        let folder = try LocalFilesTestFolder(self)
        let planted = try folder.write("got.bin.part", [7, 7])
        XCTAssertEqual(try PartialDownloadFile(destination: folder.path("got.bin")).initialSize, 2, "the user's own part file is continued")
        // Only root can give a file away.
        guard geteuid() == 0 else { return }
        XCTAssertEqual(chown(planted, 65534, 65534), 0)
        let part = try PartialDownloadFile(destination: folder.path("got.bin"))
        XCTAssertTrue(part.ignoredPart?.contains("another user") == true, "\(part.ignoredPart ?? "nil")")
        XCTAssertEqual(part.initialSize, 0)
    }

    func testAFailureKeepsOnlyAPartFileARerunCanContinue() throws {
        let folder = try LocalFilesTestFolder(self)
        var part = try PartialDownloadFile(destination: folder.path("a.bin"))
        try part.write([1], at: 0)
        part.abandon(keepingProgress: true)
        XCTAssertEqual(folder.names, ["a.bin.part"], "an interrupted download keeps its bytes")
        part = try PartialDownloadFile(destination: folder.path("a.bin"))
        part.abandon(keepingProgress: false)
        XCTAssertEqual(folder.names, [], "a refused download leaves nothing")
        part = try PartialDownloadFile(destination: folder.path("b.bin"))
        part.abandon(keepingProgress: true)
        XCTAssertEqual(folder.names, [], "an empty part file is removed")
    }

    func testTheReplacedFileKeepsItsPermissionBitsButNotSetUserID() throws {
        let folder = try LocalFilesTestFolder(self)
        try folder.write("got.bin", [0])
        XCTAssertEqual(chmod(folder.path("got.bin"), 0o4750), 0)
        let part = try PartialDownloadFile(destination: folder.path("got.bin"))
        try part.write([5], at: 0)
        try part.commit()
        XCTAssertEqual(folder.read("got.bin"), [5])
        XCTAssertEqual(folder.mode("got.bin").map { $0 & 0o7777 }, 0o750, "the permission bits, not set-user-ID")
    }

    func testAPartFileSwappedDuringTheDownloadIsNotRenamed() throws {
        let folder = try LocalFilesTestFolder(self)
        let part = try PartialDownloadFile(destination: folder.path("got.bin"))
        try part.write([1], at: 0)
        XCTAssertEqual(unlink(part.path), 0)
        try folder.link("got.bin.part", to: "/etc/hostname")
        XCTAssertThrowsError(try part.commit()) { error in
            XCTAssertTrue("\(error)".contains("replaced"), "\(error)")
        }
        XCTAssertNil(folder.mode("got.bin"), "nothing was renamed into place")
    }

    func testAMissingFolderIsAnError() {
        XCTAssertThrowsError(try PartialDownloadFile(destination: "/nonexistent-folder/got.bin")) { error in
            XCTAssertEqual((error as? FileAccessError)?.code, ENOENT)
        }
    }
}
