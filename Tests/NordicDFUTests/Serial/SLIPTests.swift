import NordicDFU
import XCTest

final class SLIPTests: XCTestCase {
    func testEncodingEscapesEndAndEscapeAndEndsTheFrame() {
        XCTAssertEqual(SLIP.encode([0x01, 0xC0, 0xDB, 0x02]), [0x01, 0xDB, 0xDC, 0xDB, 0xDD, 0x02, 0xC0])
        XCTAssertEqual(SLIP.encode([]), [0xC0])
        XCTAssertEqual(SLIP.maximumEncodedSize(ofFrame: 65), 131)
    }

    func testRoundTripOfEveryByteValueSplitAcrossChunks() {
        let frame = (0...255).map(UInt8.init) + [0xC0, 0xC0, 0xDB, 0xDB]
        let encoded = SLIP.encode(frame) + SLIP.encode([0x60, 0x09, 0x01, 0x07])
        var decoder = SLIPDecoder(maximumFrameSize: 1024)
        var frames: [[UInt8]] = []
        for start in stride(from: 0, to: encoded.count, by: 7) {
            frames += decoder.feed(encoded[start..<min(start + 7, encoded.count)])
        }
        XCTAssertEqual(frames, [frame, [0x60, 0x09, 0x01, 0x07]])
        XCTAssertEqual(decoder.statistics.frames, 2)
    }

    func testEmptyFramesAreSkipped() {
        var decoder = SLIPDecoder(maximumFrameSize: 16)
        XCTAssertEqual(decoder.feed([0xC0, 0xC0, 0x01, 0xC0, 0xC0]), [[0x01]])
    }

    func testAnInvalidEscapeDropsTheFrameUntilTheNextEnd() {
        var decoder = SLIPDecoder(maximumFrameSize: 16)
        let frames = decoder.feed([0x01, 0xDB, 0x05, 0x02, 0x03, 0xC0, 0x04, 0xC0])
        XCTAssertEqual(frames, [[0x04]])
        XCTAssertEqual(decoder.statistics.invalidEscapes, 1)
    }

    func testAnEndRightAfterAnEscapeEndsTheDamagedFrame() {
        var decoder = SLIPDecoder(maximumFrameSize: 16)
        XCTAssertEqual(decoder.feed([0x01, 0xDB, 0xC0, 0x02, 0xC0]), [[0x02]])
        XCTAssertEqual(decoder.statistics.invalidEscapes, 1)
    }

    func testAFrameBeyondTheLimitIsDroppedAndTheNextOneKept() {
        var decoder = SLIPDecoder(maximumFrameSize: 4)
        XCTAssertEqual(decoder.feed([1, 2, 3, 4, 0xC0]), [[1, 2, 3, 4]])
        XCTAssertEqual(decoder.feed([1, 2, 3, 4, 5, 6, 7, 0xC0, 9, 0xC0]), [[9]])
        XCTAssertEqual(decoder.statistics.oversized, 1)
        // An escaped byte counts once, decoded.
        XCTAssertEqual(decoder.feed([0xDB, 0xDC, 0xDB, 0xDD, 1, 2, 0xC0]), [[0xC0, 0xDB, 1, 2]])
    }

    func testResetForgetsAPartialFrame() {
        var decoder = SLIPDecoder(maximumFrameSize: 16)
        XCTAssertEqual(decoder.feed([1, 2, 0xDB]), [])
        decoder.reset()
        XCTAssertEqual(decoder.feed([3, 0xC0]), [[3]])
    }
}
