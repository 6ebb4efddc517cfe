import CBOR
import XCTest

/// The decoder rejects every kind of malformed input with the right reason and byte offset.
final class CBORDecoderErrorTests: XCTestCase {
    func testEmptyInput() {
        assertDecodingFails([], .unexpectedEnd(needed: 1), at: 0)
        XCTAssertThrowsError(try CBORDecoder(allowTrailingBytes: true).decodePrefix([])) { error in
            XCTAssertEqual(error as? CBORDecodingError, CBORDecodingError(offset: 0, reason: .unexpectedEnd(needed: 1)))
        }
    }

    func testReservedAdditionalInformationInEveryMajorTypeAndPosition() {
        for major in UInt8(0)...7 {
            for info in UInt8(28)...30 {
                let initial = major << 5 | info
                assertDecodingFails([initial], .reservedAdditionalInfo(info), at: 0)
                assertDecodingFails([0x83, 0x01, 0x02, initial], .reservedAdditionalInfo(info), at: 3)
                assertDecodingFails([0xBF, 0x61, 0x61, initial, 0xFF], .reservedAdditionalInfo(info), at: 3)
                assertDecodingFails([0xD9, 0x01, 0x00, initial], .reservedAdditionalInfo(info), at: 3)
            }
        }
    }

    func testIndefiniteLengthOnIntegersAndTags() {
        assertDecodingFails([0x1F], .indefiniteLengthNotAllowed(major: 0), at: 0)
        assertDecodingFails([0x3F], .indefiniteLengthNotAllowed(major: 1), at: 0)
        assertDecodingFails([0xDF, 0x00], .indefiniteLengthNotAllowed(major: 6), at: 0)
        assertDecodingFails([0x82, 0x00, 0x3F], .indefiniteLengthNotAllowed(major: 1), at: 2)
        assertDecodingFails([0x9F, 0xC1, 0xDF, 0xFF], .indefiniteLengthNotAllowed(major: 6), at: 2)
    }

    func testMajorTypeSevenWithIndefiniteLengthIsABreakOutsideAnIndefiniteItem() {
        assertDecodingFails([0xFF], .unexpectedBreak, at: 0)
        assertDecodingFails([0x81, 0xFF], .unexpectedBreak, at: 1)
        assertDecodingFails([0xC1, 0xFF], .unexpectedBreak, at: 1)
        assertDecodingFails([0xA1, 0xFF, 0x00], .unexpectedBreak, at: 1)
        assertDecodingFails([0xA1, 0x00, 0xFF], .unexpectedBreak, at: 2)
        assertDecodingFails([0xBF, 0x00, 0xFF], .unexpectedBreak, at: 2)
        // A break closes only the innermost indefinite item; the next one is out of place.
        assertDecodingFails([0x9F, 0xFF, 0xFF], .trailingBytes(count: 1), at: 2)
        assertDecodingFails([0x81, 0x9F, 0xFF, 0xFF], .trailingBytes(count: 1), at: 3)
    }

    func testChunksOfIndefiniteStringsMustBeDefiniteStringsOfTheSameType() {
        // Every initial byte that is not a definite byte string (or the break) is a bad chunk.
        for initial in UInt8(0)...255 where !(0x40...0x5B).contains(initial) && initial != 0xFF {
            if (28...30).contains(initial & 0x1F) {
                assertDecodingFails([0x5F, initial], .reservedAdditionalInfo(initial & 0x1F), at: 1)
                continue
            }
            var input: [UInt8] = [0x5F, initial]
            input += [UInt8](repeating: 0, count: 9)
            input.append(0xFF)
            assertDecodingFails(input, .invalidChunk, at: 1, "initial byte \(initial)")
        }
        // Text chunks in a text string only, at the offset of the chunk.
        assertDecodingFails([UInt8](hex: "7f 61 61 41 62 ff"), .invalidChunk, at: 3)
        assertDecodingFails([UInt8](hex: "7f 61 61 7f 61 62 ff ff"), .invalidChunk, at: 3)
        assertDecodingFails([UInt8](hex: "5f 41 61 c2 41 62 ff"), .invalidChunk, at: 3)
        assertDecodingFails([UInt8](hex: "82 00 5f 41 61 60 ff"), .invalidChunk, at: 5)
    }

    func testChunksOfEveryHeadSizeAreAccepted() throws {
        let chunked = [UInt8](hex: "5f 40 41 01 58 01 02 59 00 01 03 5a 00 00 00 01 04 5b 00 00 00 00 00 00 00 01 05 ff")
        XCTAssertEqual(try CBORDecoder().decode(chunked), .bytes([1, 2, 3, 4, 5]))
        let text = [UInt8](hex: "7f 60 78 01 61 79 00 01 62 ff")
        XCTAssertEqual(try CBORDecoder().decode(text), "ab")
    }

    func testInvalidUTF8() {
        let invalid: [String] = [
            "80",           // lone continuation byte
            "c0 80",        // overlong NUL
            "c1 bf",        // overlong
            "e0 80 80",     // overlong
            "f0 80 80 80",  // overlong
            "ed a0 80",     // UTF-16 surrogate U+D800
            "ed bf bf",     // surrogate U+DFFF
            "f4 90 80 80",  // above U+10FFFF
            "f5 80 80 80",
            "ff",
            "fe",
            "c3",           // truncated sequence
            "e6 b0",
            "f0 90 85",
            "61 c3 28",     // bad continuation
        ]
        for bytes in invalid.map({ [UInt8](hex: $0) }) {
            var input: [UInt8] = [0x60 | UInt8(bytes.count)]
            input += bytes
            assertDecodingFails(input, .invalidUTF8, at: 0, bytes.hex)
            // Inside an array, the offset is that of the string's head.
            assertDecodingFails([0x82, 0x00] + input, .invalidUTF8, at: 2, bytes.hex)
            // In an indefinite-length string, that of the chunk's head.
            assertDecodingFails([0x7F, 0x61, 0x61] + input + [0xFF], .invalidUTF8, at: 3, bytes.hex)
        }
    }

    func testACharacterSplitAcrossChunksIsInvalid() {
        // RFC 8949 §3.2.3: every chunk of an indefinite-length text string is valid UTF-8 by itself.
        assertDecodingFails([UInt8](hex: "7f 61 c3 61 bc ff"), .invalidUTF8, at: 1)
        assertDecodingFails([UInt8](hex: "7f 62 61 e6 62 b0 b4 ff"), .invalidUTF8, at: 1)
    }

    func testValidUTF8EdgeCasesAreKeptByteForByte() throws {
        let valid: [String] = ["00", "7f", "c2 80", "df bf", "e0 a0 80", "ef bf bf", "ef bf be", "f0 90 80 80",
                               "f4 8f bf bf", "ef bb bf 61", "65 cc 81", "c3 a9"]
        for bytes in valid.map({ [UInt8](hex: $0) }) {
            let input = [0x60 | UInt8(bytes.count)] + bytes
            let decoded = try CBORDecoder().decode(input)
            XCTAssertEqual(decoded.stringValue.map { Array($0.utf8) }, bytes)
            XCTAssertEqual(decoded.encoded(), input)
        }
    }

    func testTwoByteSimpleValuesBelow32() {
        for value in UInt8(0)..<32 {
            assertDecodingFails([0xF8, value], .invalidSimpleValue(value), at: 0)
            assertDecodingFails([0x81, 0xF8, value], .invalidSimpleValue(value), at: 1)
        }
        XCTAssertEqual(try CBORDecoder().decode([0xF8, 32]), .simple(32))
        XCTAssertEqual(try CBORDecoder().decode([0xF3]), .simple(19))
    }

    func testTrailingBytes() throws {
        assertDecodingFails([0x01, 0x02], .trailingBytes(count: 1), at: 1)
        assertDecodingFails([0x80, 0x80, 0x80], .trailingBytes(count: 2), at: 1)
        assertDecodingFails([0x9F, 0xFF, 0x00], .trailingBytes(count: 1), at: 2)
        assertDecodingFails([0x61, 0x61, 0xFF], .trailingBytes(count: 1), at: 2)
        let lenient = CBORDecoder(allowTrailingBytes: true)
        XCTAssertEqual(try lenient.decode([0x01, 0x02]), 1)
        let prefix = try CBORDecoder().decodePrefix([0x82, 0x01, 0x02, 0xFF, 0x1C])
        XCTAssertEqual(prefix.item, [1, 2])
        XCTAssertEqual(prefix.consumed, 3)
        // Decoding a CBOR sequence item by item.
        var rest = [UInt8](hex: "01 6161 f6 a0")
        var items: [CBOR] = []
        while !rest.isEmpty {
            let next = try lenient.decodePrefix(rest)
            items.append(next.item)
            rest.removeFirst(next.consumed)
        }
        XCTAssertEqual(items, [1, "a", nil, .map([:])])
    }
}
