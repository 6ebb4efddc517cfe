import CBOR
import XCTest

/// Depth limit, declared lengths larger than the input, and duplicate map keys.
final class CBORDecoderLimitsTests: XCTestCase {
    private func nested(_ opener: [UInt8], depth: Int, innermost: [UInt8] = [0x00], closer: [UInt8] = []) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(depth * (opener.count + closer.count) + innermost.count)
        for _ in 0..<depth { bytes += opener }
        bytes += innermost
        for _ in 0..<depth { bytes += closer }
        return bytes
    }

    func testTenThousandNestedArraysHitTheDepthLimitWithoutOverflowingTheStack() {
        let limit = CBORDecoder().maximumDepth
        XCTAssertEqual(limit, 64)
        assertDecodingFails(nested([0x81], depth: 10_000), .depthLimitExceeded(limit: 64), at: 64)
        assertDecodingFails(nested([0x9F], depth: 10_000, closer: [0xFF]), .depthLimitExceeded(limit: 64), at: 64)
        assertDecodingFails(nested([0xA1, 0x00], depth: 10_000), .depthLimitExceeded(limit: 64), at: 128)
        assertDecodingFails(nested([0xBF, 0x00], depth: 10_000, closer: [0xFF]), .depthLimitExceeded(limit: 64), at: 128)
        assertDecodingFails(nested([0xC1], depth: 10_000), .depthLimitExceeded(limit: 64), at: 64)
        assertDecodingFails(nested([0xD9, 0xD9, 0xF7], depth: 10_000), .depthLimitExceeded(limit: 64), at: 192)
        // A key that is itself deeply nested.
        assertDecodingFails([0xA1] + nested([0x81], depth: 10_000), .depthLimitExceeded(limit: 64), at: 64)
        // Mixed containers and tags all count.
        let mixed = nested([0x81, 0xC1, 0xA1, 0x00, 0x9F], depth: 2_000)
        assertDecodingFails(mixed, .depthLimitExceeded(limit: 64), at: 80)
    }

    func testTheLimitIsExact() throws {
        // 64 nested arrays are accepted, the 65th is refused at its own offset.
        let ok = try CBORDecoder().decode(nested([0x81], depth: 64))
        var depth = 0
        var item = ok
        while case .array(let elements) = item, let first = elements.first {
            depth += 1
            item = first
        }
        XCTAssertEqual(depth, 64)
        XCTAssertEqual(item, 0)
        XCTAssertEqual(ok.encoded(), nested([0x81], depth: 64))
        assertDecodingFails(nested([0x81], depth: 65), .depthLimitExceeded(limit: 64), at: 64)

        let shallow = CBORDecoder(maximumDepth: 2)
        XCTAssertEqual(try shallow.decode([UInt8](hex: "81 c1 00")), [.tagged(1, 0)])
        assertDecodingFails([UInt8](hex: "81 81 81 00"), .depthLimitExceeded(limit: 2), at: 2, decoder: shallow)
        assertDecodingFails([UInt8](hex: "a1 81 80 00"), .depthLimitExceeded(limit: 2), at: 2, decoder: shallow)
        let flat = CBORDecoder(maximumDepth: 0)
        XCTAssertEqual(try flat.decode([0x01]), 1)
        XCTAssertEqual(try flat.decode([UInt8](hex: "5f 41 00 ff")), .bytes([0]), "strings do not nest")
        assertDecodingFails([0x80], .depthLimitExceeded(limit: 0), at: 0, decoder: flat)
        assertDecodingFails([0xC0, 0x00], .depthLimitExceeded(limit: 0), at: 0, decoder: flat)
    }

    func testHugeDeclaredLengthsFailBeforeAnythingIsAllocated() {
        let cases: [(String, CBORDecodingError.Reason)] = [
            ("5b 80 00 00 00 00 00 00 00", .lengthExceedsInput(declared: 1 << 63, remaining: 0)),
            ("5b ff ff ff ff ff ff ff ff", .lengthExceedsInput(declared: .max, remaining: 0)),
            ("7b ff ff ff ff ff ff ff ff 61", .lengthExceedsInput(declared: .max, remaining: 1)),
            ("9b ff ff ff ff ff ff ff ff", .lengthExceedsInput(declared: .max, remaining: 0)),
            ("9b 7f ff ff ff ff ff ff ff 00 00", .lengthExceedsInput(declared: .max >> 1, remaining: 2)),
            ("bb ff ff ff ff ff ff ff ff", .lengthExceedsInput(declared: .max, remaining: 0)),
            // count × 2 overflows: must not wrap around into a small number.
            ("bb 80 00 00 00 00 00 00 00 00 00", .lengthExceedsInput(declared: 1 << 63, remaining: 2)),
            ("bb 80 00 00 00 00 00 00 01 00 00", .lengthExceedsInput(declared: 1 << 63 | 1, remaining: 2)),
            ("9a ff ff ff ff", .lengthExceedsInput(declared: 0xFFFF_FFFF, remaining: 0)),
            ("ba 00 01 00 00 00", .lengthExceedsInput(declared: 65_536, remaining: 1)),
            ("5a 00 01 00 00 00", .lengthExceedsInput(declared: 65_536, remaining: 1)),
        ]
        for (hex, reason) in cases {
            let bytes = [UInt8](hex: hex)
            assertDecodingFails(bytes, reason, at: 0)
            // The same inside containers and chunks, at the offset of the lying head.
            assertDecodingFails([0x82, 0x00] + bytes, reason, at: 2)
            if bytes[0] >> 5 == 2 {
                assertDecodingFails([0x5F] + bytes + [0xFF], lengthReason(reason, plus: 1), at: 1)
            }
        }
    }

    private func lengthReason(_ reason: CBORDecodingError.Reason, plus extra: Int) -> CBORDecodingError.Reason {
        guard case .lengthExceedsInput(let declared, let remaining) = reason else { return reason }
        return .lengthExceedsInput(declared: declared, remaining: remaining + extra)
    }

    func testContainersDeclaringMoreThanTheInputHoldsDoNotReserveIt() throws {
        // Every level declares as many elements as bytes remain: a decoder that reserved them all
        // would reserve depth × input size elements. The input is small, so it must fail fast.
        var input: [UInt8] = []
        for _ in 0..<60 { input += [0x9A, 0x00, 0x00, 0x40, 0x00] }
        input += [UInt8](repeating: 0x00, count: 16_384)
        XCTAssertNotNil(decodingError(input))
        // A big flat array that is really there decodes.
        let big = [0x9A, 0x00, 0x01, 0x00, 0x00] + [UInt8](repeating: 0x01, count: 65_536)
        XCTAssertEqual(try CBORDecoder().decode(big).arrayValue?.count, 65_536)
    }

    func testDuplicateKeysAreKeptByDefault() throws {
        let bytes = [UInt8](hex: "a3 01 02 01 03 61 61 04")
        let decoded = try CBORDecoder().decode(bytes)
        let map = try XCTUnwrap(decoded.mapValue)
        XCTAssertEqual(map.count, 3)
        XCTAssertEqual(map.duplicateKeys, [1])
        XCTAssertEqual(map[CBOR.unsigned(1)], 2, "lookups find the first entry")
        XCTAssertEqual(decoded.encoded(), bytes, "all entries are written back in order")
    }

    func testDuplicateKeysCanBeRejected() {
        let strict = CBORDecoder(rejectDuplicateKeys: true)
        assertDecodingFails([UInt8](hex: "a2 01 02 01 03"), .duplicateKey("1"), at: 3, decoder: strict)
        assertDecodingFails([UInt8](hex: "bf 61 61 00 61 62 00 61 61 00 ff"), .duplicateKey("\"a\""), at: 7, decoder: strict)
        assertDecodingFails([UInt8](hex: "82 00 a2 81 01 00 81 01 00"), .duplicateKey("[1]"), at: 6, decoder: strict)
        // The same key in a non-shortest head, in another float width, or as another NaN.
        assertDecodingFails([UInt8](hex: "a2 01 00 18 01 00"), .duplicateKey("1"), at: 3, decoder: strict)
        assertDecodingFails([UInt8](hex: "a2 f9 3e 00 00 fb 3f f8 00 00 00 00 00 00 00"), .duplicateKey("1.5"), at: 5, decoder: strict)
        assertDecodingFails([UInt8](hex: "a2 f9 7e 00 00 fa 7f c0 00 01 00"), .duplicateKey("NaN"), at: 5, decoder: strict)
        assertDecodingFails([UInt8](hex: "a2 5f 41 61 ff 00 41 61 00"), .duplicateKey("h'61'"), at: 6, decoder: strict)
    }

    func testKeysThatOnlyLookAlikeAreNotDuplicates() throws {
        let strict = CBORDecoder(rejectDuplicateKeys: true)
        let distinct = [
            "a2 01 00 21 00",                    // 1 and -2
            "a2 01 00 f9 3c 00 00",              // 1 and 1.0
            "a2 f9 00 00 00 f9 80 00 00",        // 0.0 and -0.0
            "a2 61 61 00 41 61 00",              // "a" and h'61'
            "a2 62 c3 a9 00 63 65 cc 81 00",     // "é" precomposed and decomposed
            "a2 f4 00 e0 00",                    // false and simple(0)
            "a2 80 00 a0 00",                    // [] and {}
            "a2 c1 00 00 c2 00 00",              // 1(0) and 2(0)
        ]
        for hex in distinct {
            let map = try XCTUnwrap(try strict.decode([UInt8](hex: hex)).mapValue, hex)
            XCTAssertEqual(map.count, 2, hex)
            XCTAssertEqual(map.duplicateKeys, [], hex)
        }
    }
}
