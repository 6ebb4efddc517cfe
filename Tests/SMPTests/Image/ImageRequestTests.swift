import CBOR
import XCTest
@testable import SMP

/// Exact request encoding of the image commands (definite maps, key order, retry safety).
final class ImageRequestTests: XCTestCase {
    private let hash = [UInt8](repeating: 0x11, count: 32)
    private var hashHex: String { Hex.string(hash, separator: " ") }

    func testStateRead() {
        assertRequest(ImageState().request, group: .image, command: 0, operation: .read, payload: "a0", retrySafe: true)
    }

    func testTestCarriesHashAndConfirmFalse() {
        assertRequest(
            ImageTest(hash: hash).request, group: .image, command: 0, operation: .write,
            payload: "a2 64 68 61 73 68 58 20 \(hashHex) 67 63 6f 6e 66 69 72 6d f4", retrySafe: false)
    }

    func testConfirmWithAndWithoutHash() {
        assertRequest(
            ImageConfirm().request, group: .image, command: 0, operation: .write,
            payload: "a1 67 63 6f 6e 66 69 72 6d f5", retrySafe: false)
        assertRequest(
            ImageConfirm(hash: hash).request, group: .image, command: 0, operation: .write,
            payload: "a2 64 68 61 73 68 58 20 \(hashHex) 67 63 6f 6e 66 69 72 6d f5", retrySafe: false)
    }

    func testEraseHasALongTimeoutAndIsNotRetried() {
        assertRequest(ImageErase().request, group: .image, command: 5, operation: .write, payload: "a0", retrySafe: false)
        let request = ImageErase(slot: 3).request
        assertRequest(request, group: .image, command: 5, operation: .write, payload: "a1 64 73 6c 6f 74 03", retrySafe: false)
        XCTAssertEqual(request.timeout, .seconds(30))
    }

    func testSlotInfo() {
        assertRequest(ImageSlotInfo().request, group: .image, command: 6, operation: .read, payload: "a0", retrySafe: true)
    }

    func testFirstChunkKeysInOrder() {
        let data = [UInt8](repeating: 0xAB, count: 2)
        let chunk = ImageUploadChunk(image: 1, offset: 0, data: data, length: 300, sha: hash, upgrade: true)
        assertRequest(
            chunk.request, group: .image, command: 1, operation: .write,
            payload: "a6 65 69 6d 61 67 65 01 63 6c 65 6e 19 01 2c 63 6f 66 66 00 63 73 68 61 58 20 \(hashHex) "
                + "64 64 61 74 61 42 ab ab 67 75 70 67 72 61 64 65 f5",
            retrySafe: true)
        XCTAssertEqual(chunk.request.timeout, ImageUploadChunk.firstChunkTimeout)
    }

    func testLaterChunkHasOnlyOffsetAndData() {
        let chunk = ImageUploadChunk(offset: 1000, data: [1, 2, 3])
        assertRequest(
            chunk.request, group: .image, command: 1, operation: .write,
            payload: "a2 63 6f 66 66 19 03 e8 64 64 61 74 61 43 01 02 03", retrySafe: true)
        XCTAssertNil(chunk.request.timeout)
    }

    func testOverheadIsTheExactEncodedSizeBesidesData() {
        let cases: [(UInt64?, UInt64, Int, UInt64?, [UInt8]?, Bool)] = [
            (nil, 0, 32, 300, hash, false), (2, 0, 23, 70_000, hash, true), (nil, 0, 256, 5_000_000_000, nil, false),
            (nil, 23, 0, nil, nil, false), (nil, 24, 24, nil, nil, false), (nil, 65_536, 255, nil, nil, false),
            (nil, 1_000, 65_536, nil, nil, false), (nil, 5_000_000_000, 1_000, nil, nil, false),
        ]
        for (image, offset, count, length, sha, upgrade) in cases {
            let chunk = ImageUploadChunk(
                image: image, offset: offset, data: [UInt8](repeating: 7, count: count), length: length, sha: sha, upgrade: upgrade)
            let message = SMPMessage(
                header: SMPHeader(operation: .write, length: 0, group: .image, sequence: 0, command: 1), payload: chunk.request.payload)
            let overhead = ImageUploadChunk.overhead(
                image: image, offset: offset, dataLength: count, length: length, sha: sha, upgrade: upgrade)
            XCTAssertEqual(overhead, message.encoded().count - count, "offset \(offset), \(count) bytes")
        }
    }

    func testOverheadMatchesTheProtocolTable() {
        // docs/protocol/transports.md §15.7: first chunk with a 32-byte sha and no image, data ≥ 256 bytes, a 4-byte len.
        XCTAssertEqual(ImageUploadChunk.overhead(offset: 0, dataLength: 256, length: 70_000, sha: hash), 69)
        // Later chunks: header 8 + map 1 + "off" 4 + off (1 byte below 24) + "data" 5 + data head 2.
        XCTAssertEqual(ImageUploadChunk.overhead(offset: 23, dataLength: 100), 21)
        XCTAssertEqual(ImageUploadChunk.overhead(offset: 1_000, dataLength: 300), 24)
    }
}
