import CBOR
import XCTest

/// RFC 8949 Appendix F.1: every example of a data item that is not well-formed, each with the
/// reason and byte offset the decoder must report.
final class RFC8949NotWellFormedTests: XCTestCase {
    typealias Reason = CBORDecodingError.Reason

    private struct Example {
        let hex: String
        let reason: Reason
        let offset: Int
        let line: UInt

        init(_ hex: String, _ reason: Reason, at offset: Int, line: UInt = #line) {
            self.hex = hex
            self.reason = reason
            self.offset = offset
            self.line = line
        }
    }

    // Kind 2, too little data: end of input in a head.
    private static let endInHead: [Example] = [
        Example("18", .unexpectedEnd(needed: 1), at: 1),
        Example("19", .unexpectedEnd(needed: 2), at: 1),
        Example("1a", .unexpectedEnd(needed: 4), at: 1),
        Example("1b", .unexpectedEnd(needed: 8), at: 1),
        Example("19 01", .unexpectedEnd(needed: 1), at: 1),
        Example("1a 01 02", .unexpectedEnd(needed: 2), at: 1),
        Example("1b 01 02 03 04 05 06 07", .unexpectedEnd(needed: 1), at: 1),
        Example("38", .unexpectedEnd(needed: 1), at: 1),
        Example("58", .unexpectedEnd(needed: 1), at: 1),
        Example("78", .unexpectedEnd(needed: 1), at: 1),
        Example("98", .unexpectedEnd(needed: 1), at: 1),
        Example("9a 01 ff 00", .unexpectedEnd(needed: 1), at: 1),
        Example("b8", .unexpectedEnd(needed: 1), at: 1),
        Example("d8", .unexpectedEnd(needed: 1), at: 1),
        Example("f8", .unexpectedEnd(needed: 1), at: 1),
        Example("f9 00", .unexpectedEnd(needed: 1), at: 1),
        Example("fa 00 00", .unexpectedEnd(needed: 2), at: 1),
        Example("fb 00 00 00", .unexpectedEnd(needed: 5), at: 1),
    ]

    // Definite-length strings with short data.
    private static let shortStrings: [Example] = [
        Example("41", .lengthExceedsInput(declared: 1, remaining: 0), at: 0),
        Example("61", .lengthExceedsInput(declared: 1, remaining: 0), at: 0),
        Example("5a ff ff ff ff 00", .lengthExceedsInput(declared: 0xFFFF_FFFF, remaining: 1), at: 0),
        Example("5b ff ff ff ff ff ff ff ff 01 02 03", .lengthExceedsInput(declared: .max, remaining: 3), at: 0),
        Example("7a ff ff ff ff 00", .lengthExceedsInput(declared: 0xFFFF_FFFF, remaining: 1), at: 0),
        Example("7b 7f ff ff ff ff ff ff ff 01 02 03", .lengthExceedsInput(declared: 0x7FFF_FFFF_FFFF_FFFF, remaining: 3), at: 0),
    ]

    // Definite-length maps and arrays not closed with enough items. The decoder sees before
    // reading any element that the declared count cannot fit (an element takes a byte at least).
    private static let shortContainers: [Example] = [
        Example("81", .lengthExceedsInput(declared: 1, remaining: 0), at: 0),
        Example("81 81 81 81 81 81 81 81 81", .lengthExceedsInput(declared: 1, remaining: 0), at: 8),
        Example("82 00", .lengthExceedsInput(declared: 2, remaining: 1), at: 0),
        Example("a1", .lengthExceedsInput(declared: 1, remaining: 0), at: 0),
        Example("a2 01 02", .lengthExceedsInput(declared: 2, remaining: 2), at: 0),
        Example("a1 00", .lengthExceedsInput(declared: 1, remaining: 1), at: 0),
        Example("a2 00 00 00", .lengthExceedsInput(declared: 2, remaining: 3), at: 0),
    ]

    // Tag number not followed by tag content; indefinite-length items not closed by a break.
    private static let unclosed: [Example] = [
        Example("c0", .unexpectedEnd(needed: 1), at: 1),
        Example("5f 41 00", .unexpectedEnd(needed: 1), at: 3),
        Example("7f 61 00", .unexpectedEnd(needed: 1), at: 3),
        Example("9f", .unexpectedEnd(needed: 1), at: 1),
        Example("9f 01 02", .unexpectedEnd(needed: 1), at: 3),
        Example("bf", .unexpectedEnd(needed: 1), at: 1),
        Example("bf 01 02 01 02", .unexpectedEnd(needed: 1), at: 5),
        Example("81 9f", .unexpectedEnd(needed: 1), at: 2),
        Example("9f 80 00", .unexpectedEnd(needed: 1), at: 3),
        Example("9f 9f 9f 9f 9f ff ff ff ff", .unexpectedEnd(needed: 1), at: 9),
        Example("9f 81 9f 81 9f 9f ff ff ff", .unexpectedEnd(needed: 1), at: 9),
    ]

    // Kind 3 subkind 1: reserved additional information values.
    private static let reserved: [Example] = ["1c", "1d", "1e", "3c", "3d", "3e", "5c", "5d", "5e", "7c", "7d", "7e",
                                       "9c", "9d", "9e", "bc", "bd", "be", "dc", "dd", "de", "fc", "fd", "fe"].map {
        let byte = [UInt8](hex: $0)[0]
        return Example($0, .reservedAdditionalInfo(byte & 0x1F), at: 0)
    }

    // Subkind 2: reserved two-byte encodings of simple values.
    private static let twoByteSimple: [Example] = [
        Example("f8 00", .invalidSimpleValue(0), at: 0),
        Example("f8 01", .invalidSimpleValue(1), at: 0),
        Example("f8 18", .invalidSimpleValue(24), at: 0),
        Example("f8 1f", .invalidSimpleValue(31), at: 0),
    ]

    // Subkind 3: indefinite-length string chunks not of the correct type, or not definite.
    private static let badChunks: [Example] = [
        Example("5f 00 ff", .invalidChunk, at: 1),
        Example("5f 21 ff", .invalidChunk, at: 1),
        Example("5f 61 00 ff", .invalidChunk, at: 1),
        Example("5f 80 ff", .invalidChunk, at: 1),
        Example("5f a0 ff", .invalidChunk, at: 1),
        Example("5f c0 00 ff", .invalidChunk, at: 1),
        Example("5f e0 ff", .invalidChunk, at: 1),
        Example("7f 41 00 ff", .invalidChunk, at: 1),
        Example("5f 5f 41 00 ff ff", .invalidChunk, at: 1),
        Example("7f 7f 61 00 ff ff", .invalidChunk, at: 1),
    ]

    // Subkind 4: a break where no indefinite-length item is open, or in a value position.
    private static let misplacedBreaks: [Example] = [
        Example("ff", .unexpectedBreak, at: 0),
        Example("81 ff", .unexpectedBreak, at: 1),
        Example("82 00 ff", .unexpectedBreak, at: 2),
        Example("a1 ff", .lengthExceedsInput(declared: 1, remaining: 1), at: 0),
        Example("a1 ff 00", .unexpectedBreak, at: 1),
        Example("a1 00 ff", .unexpectedBreak, at: 2),
        Example("a2 00 00 ff", .lengthExceedsInput(declared: 2, remaining: 3), at: 0),
        Example("9f 81 ff", .unexpectedBreak, at: 2),
        Example("9f 82 9f 81 9f 9f ff ff ff ff", .unexpectedBreak, at: 9),
        Example("bf 00 ff", .unexpectedBreak, at: 2),
        Example("bf 00 00 00 ff", .unexpectedBreak, at: 4),
    ]

    // Subkind 5: major type 0, 1, 6 with additional information 31.
    private static let indefiniteNumbers: [Example] = [
        Example("1f", .indefiniteLengthNotAllowed(major: 0), at: 0),
        Example("3f", .indefiniteLengthNotAllowed(major: 1), at: 0),
        Example("df", .indefiniteLengthNotAllowed(major: 6), at: 0),
    ]

    private static var allExamples: [Example] {
        endInHead + shortStrings + shortContainers + unclosed + reserved + twoByteSimple + badChunks
            + misplacedBreaks + indefiniteNumbers
    }

    /// The hex of every example, in the RFC's order.
    static var exampleHexes: [String] { allExamples.map { $0.hex.filter { $0 != " " } } }

    private var allExamples: [Example] { Self.allExamples }

    func testEveryExampleOfAppendixFIsPresent() {
        XCTAssertEqual(allExamples.count, 94)
        XCTAssertEqual(Set(allExamples.map(\.hex)).count, 94)
    }

    func testEveryExampleFailsWithItsReasonAndOffset() {
        for example in allExamples {
            assertDecodingFails([UInt8](hex: example.hex), example.reason, at: example.offset, line: example.line)
        }
    }

    func testEveryExampleFailsAsAPrefixAndWithTrailingBytesAllowed() {
        let lenient = CBORDecoder(allowTrailingBytes: true)
        for example in allExamples {
            // Bytes after the broken item change nothing, unless they complete it.
            XCTAssertThrowsError(try lenient.decodePrefix([UInt8](hex: example.hex)), example.hex, line: example.line) { error in
                XCTAssertEqual(error as? CBORDecodingError, CBORDecodingError(offset: example.offset, reason: example.reason), example.hex, line: example.line)
            }
        }
    }

    func testErrorsDescribeThemselves() {
        let error = decodingError([UInt8](hex: "82 00 ff"))
        XCTAssertEqual(error?.description, "invalid CBOR at byte 2: unexpected break code 0xFF")
        XCTAssertEqual(decodingError([UInt8](hex: "19 01"))?.description,
                       "invalid CBOR at byte 1: input ends inside an item (at least 1 more byte expected)")
        XCTAssertEqual(decodingError([UInt8](hex: "f8 18"))?.description,
                       "invalid CBOR at byte 0: simple value 24 must not use the two-byte form")
    }
}
