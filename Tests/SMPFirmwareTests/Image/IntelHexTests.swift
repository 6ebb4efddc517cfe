import SMPFirmware
import XCTest

/// The Intel HEX reader on hand-made files: what it accepts, and every error with its line.
final class IntelHexTests: XCTestCase {
    private let eof = ":00000001FF"
    private let magic: [UInt8] = [0x3D, 0xB8, 0xF3, 0x96]

    private func text(_ lines: [String], ending: String = "\n") -> [UInt8] {
        Array(lines.map { $0 + ending }.joined().utf8)
    }

    private func data(_ address: UInt16, _ bytes: [UInt8]) -> String {
        IntelHex.record(type: 0x00, address: address, data: bytes)
    }

    private func linear(_ upper: UInt16) -> String {
        IntelHex.record(type: 0x04, address: 0, data: [UInt8(upper >> 8), UInt8(upper & 0xFF)])
    }

    private func error(_ lines: [String], limit: Int = 1 << 20, line: UInt = #line) -> IntelHexError? {
        do {
            let hex = try IntelHex(text: text(lines), maximumDataSize: limit)
            XCTFail("accepted: \(hex)", line: line)
            return nil
        } catch {
            return error
        }
    }

    private func imageError(_ lines: [String], line: UInt = #line) -> IntelHexError? {
        do {
            let image = try IntelHexImage(text: text(lines), maximumSize: 1 << 20)
            XCTFail("accepted: \(image)", line: line)
            return nil
        } catch {
            return error
        }
    }

    func testRecordMatchesTheSpecificationExample() {
        XCTAssertEqual(
            IntelHex.record(type: 0, address: 0x0010, data: [0x61, 0x64, 0x64, 0x72, 0x65, 0x73, 0x73, 0x20, 0x67, 0x61, 0x70]),
            ":0B0010006164647265737320676170A7")
        XCTAssertEqual(IntelHex.record(type: 1, address: 0, data: []), eof)
    }

    func testDataAcrossRecordsAndLinearAddressesIsOneSegment() throws {
        let lines = [linear(0x0001), data(0xFFF0, Array(repeating: 0xAA, count: 16)), linear(0x0002), data(0x0000, [1, 2, 3]), eof]
        for ending in ["\n", "\r\n"] {
            let hex = try IntelHex(text: text(lines, ending: ending), maximumDataSize: 1 << 20)
            XCTAssertEqual(hex.segments, [IntelHex.Segment(address: 0x1FFF0, bytes: Array(repeating: 0xAA, count: 16) + [1, 2, 3])])
            XCTAssertNil(hex.startAddress)
        }
    }

    func testSegmentAddressesStartAddressesBlankLinesAndLowercase() throws {
        let segment = IntelHex.record(type: 0x02, address: 0, data: [0x12, 0x34])
        let start = IntelHex.record(type: 0x03, address: 0, data: [0x12, 0x34, 0x00, 0x05])
        let hex = try IntelHex(text: text([segment, "", data(0x0004, [9, 8]).lowercased(), start, "  ", eof, "", "\t"]), maximumDataSize: 16)
        XCTAssertEqual(hex.segments, [IntelHex.Segment(address: 0x12344, bytes: [9, 8])])
        XCTAssertEqual(hex.startAddress, 0x12345)
        let linearStart = IntelHex.record(type: 0x05, address: 0, data: [0x00, 0x00, 0xC1, 0x23])
        XCTAssertEqual(try IntelHex(text: text([linearStart, data(0, [1]), eof]), maximumDataSize: 16).startAddress, 0xC123)
    }

    func testOutOfOrderRecordsAreSortedAndJoined() throws {
        let hex = try IntelHex(text: text([data(0x0010, [3, 4]), data(0x0000, [1]), data(0x0001, [2]), data(0x0100, [9]), eof]), maximumDataSize: 16)
        XCTAssertEqual(hex.ranges.map(\.description), ["0x00000000–0x00000001 (2 bytes)", "0x00000010–0x00000011 (2 bytes)", "0x00000100–0x00000100 (1 bytes)"])
        XCTAssertEqual(hex.segments.map(\.bytes), [[1, 2], [3, 4], [9]])
    }

    func testWrittenTextReadsBack() throws {
        let segments = [IntelHex.Segment(address: 0xFFFE, bytes: Array(0..<40)), IntelHex.Segment(address: 0xFFFF_FF00, bytes: Array(repeating: 7, count: 256))]
        for size in [1, 16, 255] {
            let hex = try IntelHex(text: IntelHex.text(segments: segments, startAddress: 0x8001, recordSize: size), maximumDataSize: 1 << 20)
            XCTAssertEqual(hex.segments, segments, "\(size)-byte records")
            XCTAssertEqual(hex.startAddress, 0x8001)
        }
    }

    func testLineErrors() {
        XCTAssertEqual(error([" " + eof]), .missingColon(line: 1))
        XCTAssertEqual(error([data(0, [1]), "00000001FF"]), .missingColon(line: 2))
        XCTAssertEqual(error([":0000000G01"]), .notHexDigit(line: 1, column: 9, character: UInt8(ascii: "G")))
        XCTAssertEqual(error([eof + " "]), .notHexDigit(line: 1, column: 12, character: 0x20))
        XCTAssertEqual(error([":000001FF"]), .recordTooShort(line: 1, characters: 9))
        XCTAssertEqual(error([":01000000FF", eof]), .lengthMismatch(line: 1, dataBytes: 1, expectedCharacters: 13, characters: 11))
        XCTAssertEqual(error([":02000000AB"]), .lengthMismatch(line: 1, dataBytes: 2, expectedCharacters: 15, characters: 11))
        XCTAssertEqual(error([":0100000001FD", eof]), .checksumMismatch(line: 1, found: 0xFD, expected: 0xFE))
        XCTAssertEqual(error([IntelHex.record(type: 0x06, address: 0, data: []), eof]), .unsupportedRecordType(line: 1, type: 0x06))
    }

    func testRecordErrorMessagesSayWhatWhereAndWhatToDo() {
        XCTAssertEqual(
            IntelHexError.checksumMismatch(line: 12, found: 0x3C, expected: 0x4D).description,
            "line 12: checksum 0x3c, expected 0x4d; the file is damaged: build or download it again")
        XCTAssertEqual(
            IntelHexError.notHexDigit(line: 3, column: 5, character: 0x07).description,
            "line 3, column 5: byte 0x07 is not a hexadecimal digit; the file is damaged")
        XCTAssertEqual(
            IntelHexError.missingEndOfFile(lines: 40).description,
            "no end-of-file record (:00000001FF) in 40 lines; the file is truncated: build or download it again")
    }

    func testMalformedAddressAndEndRecords() {
        XCTAssertEqual(
            error([IntelHex.record(type: 0x01, address: 0, data: [0]), eof]),
            .malformedRecord(line: 1, type: 0x01, problem: "(end of file) must have no data"))
        XCTAssertEqual(
            error([IntelHex.record(type: 0x04, address: 0, data: [1]), eof]),
            .malformedRecord(line: 1, type: 0x04, problem: "must have 2 data bytes, not 1"))
        XCTAssertEqual(
            error([IntelHex.record(type: 0x02, address: 0x10, data: [0, 1]), eof]),
            .malformedRecord(line: 1, type: 0x02, problem: "must have the address field 0000, not 0010"))
        XCTAssertEqual(
            error([IntelHex.record(type: 0x05, address: 0, data: [0, 1]), eof]),
            .malformedRecord(line: 1, type: 0x05, problem: "must have 4 data bytes, not 2"))
        let start = IntelHex.record(type: 0x05, address: 0, data: [0, 0, 0, 1])
        XCTAssertEqual(error([start, data(0, [1]), start, eof]), .duplicateStartAddress(line: 3, firstLine: 1))
    }

    func testEndOfFileMustBePresentAndLast() {
        XCTAssertEqual(error([data(0, [1]), data(1, [2])]), .missingEndOfFile(lines: 2))
        XCTAssertEqual(error([]), .missingEndOfFile(lines: 0))
        XCTAssertEqual(error([data(0, [1]), eof, "", data(1, [2])]), .dataAfterEndOfFile(line: 4, endOfFileLine: 2))
        XCTAssertEqual(error([data(0, [1]), eof, eof]), .dataAfterEndOfFile(line: 3, endOfFileLine: 2))
    }

    func testAddressesPast4GiBAreRefused() {
        XCTAssertEqual(error([linear(0xFFFF), data(0xFFFF, [1, 2]), eof]), .addressBeyond4GiB(line: 2, address: 0xFFFF_FFFF, count: 2))
        XCTAssertEqual(
            try IntelHex(text: text([linear(0xFFFF), data(0xFFFF, [1]), eof]), maximumDataSize: 16).segments,
            [IntelHex.Segment(address: 0xFFFF_FFFF, bytes: [1])], "the last byte of the 4 GiB space")
    }

    func testOverlapsAndDuplicatesAreRefusedWithBothLines() {
        XCTAssertEqual(error([data(0, [1, 2, 3, 4]), data(2, [9]), eof]), .overlap(line: 2, address: 2, firstLine: 1))
        XCTAssertEqual(error([data(0x10, [1]), data(0x11, [2]), data(0x10, [1]), eof]), .overlap(line: 3, address: 0x10, firstLine: 1))
        XCTAssertEqual(error([data(4, [1]), data(0, [1, 2, 3, 4, 5]), eof]), .overlap(line: 2, address: 4, firstLine: 1))
        XCTAssertEqual(
            IntelHexError.overlap(line: 3, address: 0x10, firstLine: 1).description,
            "line 3: address 0x00000010 is already given by the data from line 1 on; overlapping data is refused: give one image's .hex")
    }

    func testTheLimitIsCheckedRecordByRecord() {
        XCTAssertEqual(error([data(0, Array(repeating: 0, count: 16)), data(16, [1]), eof], limit: 16), .tooMuchData(line: 2, limit: 16))
        XCTAssertEqual(
            try IntelHex(text: text([data(0, Array(repeating: 0, count: 16)), eof]), maximumDataSize: 16).segments,
            [IntelHex.Segment(address: 0, bytes: Array(repeating: 0, count: 16))], "exactly the limit")
    }

    func testImageNeedsOneRangeWithTheMagic() throws {
        let image = try IntelHexImage(text: text([linear(1), data(0x2000, magic + [5, 6]), eof]), maximumSize: 64)
        XCTAssertEqual(image.baseAddress, 0x12000)
        XCTAssertEqual(image.bytes, magic + [5, 6])
        XCTAssertEqual(imageError([eof]), .noData)
        let notImage = IntelHexRange(address: 0, count: 2, startsWithMCUbootMagic: false)
        XCTAssertEqual(imageError([data(0, [0x98, 0x53]), eof]), .notAnMCUbootImage(range: notImage, firstBytes: [0x98, 0x53]))
        XCTAssertEqual(
            IntelHexError.notAnMCUbootImage(range: notImage, firstBytes: [0x98, 0x53]).description,
            "the data at 0x00000000–0x00000001 (2 bytes) does not start with the MCUboot image magic (3d b8 f3 96) but with 98 53; "
                + "is it unsigned (zephyr.hex) or the bootloader itself? give the signed image (zephyr.signed.hex, made by the build or by `imgtool sign`)")
    }

    func testSeveralRangesAreListed() {
        let ranges = [
            IntelHexRange(address: 0, count: 2, startsWithMCUbootMagic: false),
            IntelHexRange(address: 0x8000, count: 5, startsWithMCUbootMagic: true),
        ]
        XCTAssertEqual(imageError([data(0, [1, 2]), data(0x8000, magic + [0]), eof]), .severalRanges(ranges))
        XCTAssertEqual(
            IntelHexError.severalRanges(ranges).description,
            "the file holds 2 separate address ranges: 0x00000000–0x00000001 (2 bytes), 0x00008000–0x00008004 (5 bytes, an MCUboot image); "
                + "an MCUboot image is one contiguous range. Give the application's signed image (zephyr.signed.hex, not merged.hex: "
                + "a merged file with the bootloader is for a flash programmer)")
        // Two images: refused even though each has the magic.
        XCTAssertNotNil(imageError([data(0, magic), data(0x100, magic), eof]))
    }

    func testPaddedImageGapIsErasedFlash() throws {
        let trailer: [UInt8] = [0x77, 0xC2, 0x95, 0xF3, 0x60, 0xD2, 0xEF, 0x7F, 0x35, 0x52, 0x50, 0x0F, 0x2C, 0xB6, 0x79, 0x80]
        let lines = [data(0x1000, magic), data(0x1010, [1] + trailer), eof]
        let image = try IntelHexImage(text: text(lines), maximumSize: 64)
        XCTAssertEqual(image.baseAddress, 0x1000)
        XCTAssertEqual(image.bytes, magic + Array(repeating: 0xFF, count: 12) + [1] + trailer)
        do {
            _ = try IntelHexImage(text: text(lines), maximumSize: 32)
            XCTFail("a 33-byte padded image under a 32-byte limit")
        } catch {
            XCTAssertEqual(error, .paddedImageTooLarge(span: 33, limit: 32))
        }
        // Without the trailer magic at the end, or without the image magic first, the ranges are refused.
        XCTAssertNotNil(imageError([data(0x1000, magic), data(0x1010, trailer + [1]), eof]))
        XCTAssertNotNil(imageError([data(0x1000, [0] + magic), data(0x1010, trailer), eof]))
    }
}
