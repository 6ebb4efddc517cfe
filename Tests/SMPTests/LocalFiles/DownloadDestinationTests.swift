import Foundation
import SMP
import SMPLocalFiles
import XCTest

/// What `fs get REMOTE LOCAL` writes to: a file, the remote name in a folder, a device or FIFO as
/// a stream, or a clear refusal.
final class DownloadDestinationTests: XCTestCase {
    private func resolve(_ local: String) throws(FileAccessError) -> DownloadDestination {
        try DownloadDestination.resolve(local, remoteName: "log.txt")
    }

    private func refusal(_ local: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            let destination = try resolve(local)
            XCTFail("\(local) resolved to \(destination)", file: file, line: line)
            return ""
        } catch {
            return error.description
        }
    }

    func testFilesFoldersAndStandardOutput() throws {
        let folder = try LocalFilesTestFolder(self)
        try FileManager.default.createDirectory(atPath: folder.path("sub"), withIntermediateDirectories: false)
        try folder.write("old.txt", [1])
        XCTAssertEqual(try resolve("-"), .standardOutput)
        XCTAssertEqual(try resolve(folder.path("new.txt")), .file(path: folder.path("new.txt")))
        XCTAssertEqual(try resolve(folder.path("old.txt")), .file(path: folder.path("old.txt")))
        XCTAssertEqual(try resolve(folder.path("sub")), .file(path: folder.path("sub/log.txt")))
        XCTAssertEqual(try resolve(folder.path("sub/")), .file(path: folder.path("sub/log.txt")))
    }

    func testDevicesAndFIFOsAreStreams() throws {
        let folder = try LocalFilesTestFolder(self)
        let fifo = try folder.fifo("pipe")
        XCTAssertEqual(try resolve("/dev/null"), .stream(path: "/dev/null", kind: .characterDevice))
        XCTAssertEqual(try resolve(fifo), .stream(path: fifo, kind: .fifo))
        try folder.link("null-link", to: "/dev/null")
        XCTAssertEqual(try resolve(folder.path("null-link")), .stream(path: folder.path("null-link"), kind: .characterDevice))
    }

    func testAFIFOWithoutReaderIsRefusedAtOnce() throws {
        let folder = try LocalFilesTestFolder(self)
        let fifo = try folder.fifo("pipe")
        XCTAssertThrowsError(try DownloadDestination.openStream(fifo, kind: .fifo)) { error in
            XCTAssertTrue("\(error)".contains("no process reads the FIFO"), "\(error)")
        }
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }
        let writer = try DownloadDestination.openStream(fifo, kind: .fifo)
        defer { close(writer) }
        let sink = OrderedStreamSink(descriptor: writer, path: fifo)
        try sink.write([3, 4], at: 2)
        try sink.write([1, 2], at: 0)
        var buffer = [UInt8](repeating: 0, count: 8)
        let count = read(reader, &buffer, buffer.count)
        XCTAssertEqual(Array(buffer.prefix(max(0, count))), [1, 2, 3, 4], "bytes that arrive early wait for those before them")
    }

    func testRefusals() throws {
        let folder = try LocalFilesTestFolder(self)
        try FileManager.default.createDirectory(atPath: folder.path("sub/log.txt"), withIntermediateDirectories: true)
        try folder.link("dangling", to: folder.path("missing"))
        XCTAssertTrue(refusal(folder.path("sub")).contains("it is a directory"))
        XCTAssertTrue(refusal(folder.path("nofolder/x")).contains("the folder \(folder.path("nofolder")) does not exist"))
        XCTAssertTrue(refusal(folder.path("nofolder/")).contains("the folder does not exist"))
        XCTAssertTrue(refusal(folder.path("dangling")).contains("symbolic link to a missing file"))

        let socketPath = folder.path("socket")
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in socketPath.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertTrue(refusal(socketPath).contains("it is a socket"))
    }

    func testALinkPlantedByAnotherUserIsNotFollowed() throws {
        let folder = try LocalFilesTestFolder(self)
        let victim = try folder.write("victim", [1])
        let planted = try folder.link("out.bin", to: victim)
        XCTAssertEqual(try resolve(planted), .file(path: victim), "the user's own link is followed: its target is replaced")
        // Only root can give a link away.
        guard geteuid() == 0 else { return }
        XCTAssertEqual(lchown(planted, 65534, 65534), 0)
        XCTAssertTrue(refusal(planted).contains("symbolic link of another user"))
    }
}
