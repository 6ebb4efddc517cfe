import CBOR
import XCTest
@testable import SMP

/// Exact request encoding and response decoding of the file system commands (docs/protocol/file-system.md §9).
final class FileSystemRequestTests: XCTestCase {
    func testDownloadAndStatus() throws {
        assertRequest(
            FileDownloadChunk(name: "/a", offset: 0).request, group: .fileSystem, command: 0, operation: .read,
            payload: "a2 63 6f 66 66 00 64 6e 61 6d 65 62 2f 61", retrySafe: true)
        assertRequest(FileStatus(name: "/a").request, group: .fileSystem, command: 1, operation: .read, payload: "a1 64 6e 61 6d 65 62 2f 61", retrySafe: true)
        let answer = try FileDownloadChunk(name: "/a", offset: 0).decodeResponse(["off": 0, "data": .bytes([1, 2]), "len": 9])
        XCTAssertEqual(answer, FileDownloadChunk.Response(offset: 0, data: [1, 2], length: 9))
        XCTAssertEqual(decodeFailure(FileDownloadChunk(name: "/a", offset: 0), ["off": 0, "data": "text"]),
                       "field \"data\" should be a byte string but is text string \"text\"")
    }

    func testUploadCarriesLenOnlyWhenGivenAndIsRetrySafe() {
        assertRequest(
            FileUploadChunk(name: "/a", offset: 0, data: [7], length: 1).request, group: .fileSystem, command: 0, operation: .write,
            payload: "a4 63 6f 66 66 00 64 64 61 74 61 41 07 64 6e 61 6d 65 62 2f 61 63 6c 65 6e 01", retrySafe: true)
        assertRequest(
            FileUploadChunk(name: "/a", offset: 1, data: [7]).request, group: .fileSystem, command: 0, operation: .write,
            payload: "a3 63 6f 66 66 01 64 64 61 74 61 41 07 64 6e 61 6d 65 62 2f 61", retrySafe: true)
    }

    func testUploadOverheadIsExact() {
        for (offset, length, total) in [(0, 0, 0), (0, 23, 100), (24, 24, nil), (300, 255, nil), (70_000, 256, nil), (0, 2000, 1 << 33)] as [(UInt64, Int, UInt64?)] {
            let chunk = FileUploadChunk(name: "/lfs1/x.bin", offset: offset, data: [UInt8](repeating: 1, count: length), length: total)
            let encoded = SMPMessage(header: SMPHeader(operation: .write, length: 0, group: .fileSystem, sequence: 0, command: 0), payload: chunk.request.payload).encoded()
            XCTAssertEqual(FileUploadChunk.overhead(name: "/lfs1/x.bin", offset: offset, dataLength: length, length: total) + length, encoded.count, "\(offset) \(length)")
        }
    }

    func testHashUsesOffAndLenKeys() throws {
        assertRequest(
            FileHash(name: "/a", type: "sha256", offset: 2, length: 3).request, group: .fileSystem, command: 2, operation: .read,
            payload: "a4 64 6e 61 6d 65 62 2f 61 64 74 79 70 65 66 73 68 61 32 35 36 63 6f 66 66 02 63 6c 65 6e 03", retrySafe: true)
        let crc = try FileHash(name: "/a").decodeResponse(["type": "crc32", "len": 9, "output": .unsigned(0xCBF4_3926)])
        XCTAssertEqual(crc, FileHash.Response(type: "crc32", offset: 0, length: 9, output: [0xCB, 0xF4, 0x39, 0x26]))
        XCTAssertEqual(crc.hex, "cbf43926")
        let sha = try FileHash(name: "/a").decodeResponse(["type": "sha256", "off": 4, "len": 1, "output": .bytes([9, 9])])
        XCTAssertEqual(sha.offset, 4)
        XCTAssertEqual(decodeFailure(FileHash(name: "/a"), ["type": "crc32", "len": 9, "output": .unsigned(1 << 40)]),
                       "field \"output\" should be a byte string or a 32-bit number but is integer 1099511627776")
    }

    func testTypesAndClose() throws {
        assertRequest(FileHashTypes().request, group: .fileSystem, command: 3, operation: .read, payload: "a0", retrySafe: true)
        assertRequest(FileClose().request, group: .fileSystem, command: 4, operation: .write, payload: "a0", retrySafe: true)
        let types = try FileHashTypes().decodeResponse(["types": ["crc32": ["format": 0, "size": 4], "sha256": ["format": 1, "size": 32]]])
        XCTAssertEqual(types, [.init(name: "crc32", isByteString: false, size: 4), .init(name: "sha256", isByteString: true, size: 32)])
        XCTAssertEqual(decodeFailure(FileHashTypes(), ["types": ["crc32": 1]]), "\"types\" should map names to {format, size} but holds \"crc32\"")
    }

    func testOffsetNotValidIsARewindToLen() {
        let target = FileUploadTarget(name: "/a")
        let error = SMPDeviceError.groupError(SMPGroupError(group: 8, code: 11))
        XCTAssertEqual(target.acknowledgement(ofError: error, payload: ["len": 40]), UploadAcknowledgement(offset: 40))
        XCTAssertNil(target.acknowledgement(ofError: error, payload: [:]), "without len it is a failure")
        XCTAssertNil(target.acknowledgement(ofError: .groupError(SMPGroupError(group: 8, code: 10)), payload: ["len": 40]))
        XCTAssertEqual(
            target.acknowledgement(ofError: .returnCode(.unknown, group: 8, reason: nil), payload: ["len": 7]), UploadAcknowledgement(offset: 7),
            "SMP v1: the translated rc with len")
        XCTAssertNil(ImageUploadTarget().acknowledgement(ofError: error, payload: ["len": 40]), "other targets fail on errors")
    }
}
