import Foundation
import XCTest
@testable import SMP
import SMPLocalFiles

/// The pieces of the file transfers: the download bookkeeping (short answers, end of file),
/// CRC-32, local hashing, and reading and writing local files by offset.
final class FileTransferPartsTests: XCTestCase {
    func testDownloadRunRequestsTheRestOfAShortAnswerFirst() {
        var run = DownloadRun(total: 1000, held: 100, chunkSize: 100, window: 3, resumedFrom: nil) { _ in }
        let first = run.nextRanges()
        XCTAssertEqual(first.map(\.offset), [100, 200, 300])
        XCTAssertEqual(run.receive(first[0], data: [UInt8](repeating: 1, count: 60)).count, 60)
        let next = run.nextRanges()
        XCTAssertEqual(next, [DownloadRun.Range(offset: 160, end: 200)], "the gap before a fresh chunk")
        XCTAssertEqual(run.receive(next[0], data: [UInt8](repeating: 1, count: 40)).count, 40)
        XCTAssertEqual(run.report().acknowledged, 200)
        XCTAssertEqual(run.report().chunksSent, 5, "the first request (offset 0), three fresh ranges and the gap")
        XCTAssertEqual(run.report().bytesSent, 100 + 300 + 40)
        XCTAssertEqual(run.receive(next[0], data: [1]), [], "a duplicate answer is ignored")
    }

    func testDownloadRunEndsAtAnEmptyAnswer() {
        var run = DownloadRun(total: 500, held: 100, chunkSize: 100, window: 4, resumedFrom: nil) { _ in }
        let ranges = run.nextRanges()
        XCTAssertEqual(run.receive(ranges[0], data: [UInt8](repeating: 0, count: 100)).count, 100)
        XCTAssertEqual(run.receive(ranges[1], data: []), [], "the file ends at 200")
        XCTAssertTrue(run.isPastEnd(ranges[2]))
        XCTAssertTrue(run.isPastEnd(ranges[3]))
        XCTAssertEqual(run.total, 200)
        XCTAssertTrue(run.isComplete)
    }

    func testDownloadRunCutsDataPastTheEnd() {
        var run = DownloadRun(total: 150, held: 100, chunkSize: 100, window: 1, resumedFrom: nil) { _ in }
        let range = run.nextRanges()[0]
        XCTAssertEqual(range, DownloadRun.Range(offset: 100, end: 150))
        XCTAssertEqual(run.receive(range, data: [UInt8](repeating: 0, count: 80)).count, 50)
        XCTAssertTrue(run.isComplete)
    }

    func testCRC32MatchesZlib() {
        XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(CRC32.checksum([]), 0)
        XCTAssertEqual(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)), 0x414F_A339)
    }

    func testLocalHashOfARangeReadInPieces() throws {
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 31) }
        XCTAssertEqual(try LocalFileHash.hash(bytes, type: "sha256"), SHA256Hash.digest(bytes))
        XCTAssertEqual(try LocalFileHash.hash(bytes, type: "sha256", length: 70_000), SHA256Hash.digest(Array(bytes.prefix(70_000))))
        let crc = CRC32.checksum(bytes[5..<100_005])
        XCTAssertEqual(try LocalFileHash.hash(bytes, type: "crc32", offset: 5, length: 100_000), (0..<4).reversed().map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) })
        XCTAssertNil(try LocalFileHash.hash(bytes, type: "md5"))
    }

    func testFileSourceAndPartialDownloadWorkByOffset() throws {
        let path = NSTemporaryDirectory() + "fs-parts-\(UUID().uuidString)"
        defer { for file in [path, path + ".part"] { try? FileManager.default.removeItem(atPath: file) } }
        let part = try PartialDownloadFile(destination: path)
        XCTAssertEqual(part.initialSize, 0)
        try part.write([5, 6, 7], at: 3)
        try part.write([1, 2, 3], at: 0)
        try part.finish(length: 5)
        XCTAssertEqual(try PartialDownloadFile(destination: path).initialSize, 5, "opening the part file again keeps its contents")
        try part.commit()
        let source = try FileUploadSource(path: path)
        XCTAssertEqual(source.count, 5)
        XCTAssertEqual(try source.read(offset: 1, length: 4), [2, 3, 5, 6])
        XCTAssertThrowsError(try FileUploadSource(path: path + ".missing")) { error in
            XCTAssertEqual((error as? FileAccessError)?.isMissing, true)
        }
        XCTAssertThrowsError(try FileUploadSource(path: NSTemporaryDirectory())) { error in
            XCTAssertEqual((error as? FileAccessError)?.code, EISDIR)
        }
    }
}
