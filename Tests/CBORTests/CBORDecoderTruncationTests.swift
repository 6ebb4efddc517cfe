import CBOR
import XCTest

/// Every strict prefix of a well-formed item is an error (CBOR items are prefix-free), reported
/// at an offset inside the input, and never a crash.
final class CBORDecoderTruncationTests: XCTestCase {
    private func assertEveryCutFails(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        for cut in 0..<bytes.count {
            let prefix = Array(bytes[..<cut])
            do {
                let item = try CBORDecoder().decode(prefix)
                XCTFail("\(bytes.hex) cut at \(cut) decoded to \(item)", file: file, line: line)
            } catch {
                XCTAssertLessThanOrEqual(error.offset, cut, "\(bytes.hex) cut at \(cut)", file: file, line: line)
                switch error.reason {
                case .unexpectedEnd(let needed):
                    // "At least `needed` more bytes": the complete item does have them.
                    XCTAssertGreaterThan(needed, 0, file: file, line: line)
                    XCTAssertLessThanOrEqual(needed, bytes.count - cut, "\(bytes.hex) cut at \(cut)", file: file, line: line)
                case .lengthExceedsInput(_, let remaining):
                    XCTAssertLessThan(remaining, cut - error.offset, file: file, line: line)
                default:
                    XCTFail("\(bytes.hex) cut at \(cut): \(error)", file: file, line: line)
                }
            }
            let strict = Result { () throws(CBORDecodingError) in try CBORDecoder().decode(prefix) }
            XCTAssertThrowsError(try CBORDecoder(allowTrailingBytes: true).decodePrefix(prefix), file: file, line: line) { error in
                guard case .failure(let expected) = strict else { return }
                XCTAssertEqual(error as? CBORDecodingError, expected, "\(bytes.hex) cut at \(cut): as a prefix, the same error", file: file, line: line)
            }
        }
        // The whole item decodes, as a prefix too (taking exactly its bytes), and re-encodes to the same item.
        do {
            let whole = try CBORDecoder().decode(bytes)
            let prefix = try CBORDecoder(allowTrailingBytes: true).decodePrefix(bytes + [0x00])
            XCTAssertEqual(prefix.consumed, bytes.count, bytes.hex, file: file, line: line)
            XCTAssertEqual(prefix.item, whole, bytes.hex, file: file, line: line)
            XCTAssertEqual(try CBORDecoder().decode(whole.encoded()), whole, bytes.hex, file: file, line: line)
        } catch {
            XCTFail("\(bytes.hex) does not decode: \(error)", file: file, line: line)
        }
    }

    func testEveryCutOfEveryAppendixAVector() {
        for bytes in RFC8949.allEncodings { assertEveryCutFails(bytes) }
    }

    func testEveryCutOfNestedItems() {
        let items: [CBOR] = [
            ["key": [1, -1000, .bytes([1, 2, 3]), .tagged(1_000_000, [nil, .undefined, .simple(99)])], "f": 1.1],
            .array((0..<30).map { .text(String(repeating: "x", count: $0)) }),
            .tagged(UInt64.max, .map([.float(-0.0): .negative(UInt64.max), [1, 2]: .float(100_000)])),
        ]
        for item in items {
            assertEveryCutFails(item.encoded())
            var writer = CBORWriter(indefiniteContainers: true)
            writer.write(item)
            assertEveryCutFails(writer.bytes)
        }
        var chunks = CBORWriter()
        chunks.beginIndefiniteArray()
        chunks.writeIndefiniteBytes([[1], [], [2, 3, 4]])
        chunks.writeIndefiniteText(["ab", "\u{10151}"])
        chunks.writeBreak()
        assertEveryCutFails(chunks.bytes)
    }

    func testEveryCutOfRandomItems() {
        var random = RandomCBOR(seed: 0x7275_6E63, maximumDepth: 3)
        var tested = 0
        while tested < 200 {
            let bytes = random.item().encoded()
            guard bytes.count <= 1_500 else { continue }
            assertEveryCutFails(bytes)
            tested += 1
        }
    }

    func testOffsetsOfTruncations() {
        assertDecodingFails([UInt8](hex: "1a 00 0f 42"), .unexpectedEnd(needed: 1), at: 1)
        assertDecodingFails([UInt8](hex: "1b 00"), .unexpectedEnd(needed: 7), at: 1)
        assertDecodingFails([UInt8](hex: "83 01 02"), .lengthExceedsInput(declared: 3, remaining: 2), at: 0)
        assertDecodingFails([UInt8](hex: "82 01 82 02"), .lengthExceedsInput(declared: 2, remaining: 1), at: 2)
        assertDecodingFails([UInt8](hex: "82 01 19 01"), .unexpectedEnd(needed: 1), at: 3)
        assertDecodingFails([UInt8](hex: "a1 61 61 19"), .unexpectedEnd(needed: 2), at: 4)
        assertDecodingFails([UInt8](hex: "64 49 45 54"), .lengthExceedsInput(declared: 4, remaining: 3), at: 0)
        assertDecodingFails([UInt8](hex: "9f 01 02"), .unexpectedEnd(needed: 1), at: 3)
        assertDecodingFails([UInt8](hex: "5f 42 01 02 43 03"), .lengthExceedsInput(declared: 3, remaining: 1), at: 4)
        assertDecodingFails([UInt8](hex: "d8"), .unexpectedEnd(needed: 1), at: 1)
        assertDecodingFails([UInt8](hex: "d8 20"), .unexpectedEnd(needed: 1), at: 2)
        assertDecodingFails([UInt8](hex: "fb 3f f1 99 99 99"), .unexpectedEnd(needed: 3), at: 1)
    }
}
