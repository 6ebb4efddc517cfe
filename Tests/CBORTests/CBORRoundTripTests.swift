import SMPTestSupport
import CBOR
import XCTest

/// Property tests: random items survive encoding and decoding, in both length styles.
final class CBORRoundTripTests: XCTestCase {
    /// Decodes with a depth limit that fits the generator's items.
    private let decoder = CBORDecoder()

    func testRandomItemsRoundTrip() throws {
        var random = RandomCBOR(seed: 0x5EED_CB02)
        var floats = 0
        var nans = 0
        for index in 0..<5_000 {
            let item = random.item()
            let encoded = item.encoded()
            let decoded = try decoder.decode(encoded)
            // Items can be long: failures name them by index and the start of their encoding.
            let name = "item \(index) (\(encoded.hex.prefix(80)))"
            guard decoded == item else {
                XCTFail("\(name) decodes to a different item")
                continue
            }
            XCTAssertTrue(decoded.encoded() == encoded, "\(name) re-encodes differently")
            XCTAssertTrue(decoded.diagnosticDescription == item.diagnosticDescription, name)
            XCTAssertEqual(decoded.hashValue, item.hashValue, name)

            var writer = CBORWriter(indefiniteContainers: true)
            writer.write(item)
            let fromIndefinite = try decoder.decode(writer.bytes)
            XCTAssertTrue(fromIndefinite == item, "\(name) with indefinite lengths")
            XCTAssertTrue(fromIndefinite.encoded() == encoded, "\(name) with indefinite lengths")

            if case .float(let d) = item {
                floats += 1
                if d.isNaN { nans += 1 }
            }
        }
        XCTAssertGreaterThan(floats, 300, "the generator produces floats")
        XCTAssertGreaterThan(nans, 5, "and NaNs")
    }

    func testRandomItemsRoundTripThroughAStrictDecoderWhenKeysAreUnique() throws {
        var random = RandomCBOR(seed: 42, profile: .cbor2)
        let strict = CBORDecoder(rejectDuplicateKeys: true)
        for index in 0..<1_000 {
            let item = random.item()
            let encoded = item.encoded()
            XCTAssertTrue(try strict.decode(encoded) == item, "item \(index) (\(encoded.hex.prefix(80)))")
        }
    }

    func testNaNIsOneItem() throws {
        // NaN != NaN for Double, but every NaN is the same CBOR item: the encoder writes all of
        // them as f97e00, whatever their width, sign and payload were.
        let nans = ["f97e00", "f97c01", "f9fe00", "f97fff", "fa7fc00000", "fa7f800001", "faffffffff",
                    "fb7ff8000000000000", "fb7ff0000000000001", "fbfff8000000000000", "fb7fffffffffffffff"]
        for hex in nans {
            let decoded = try decoder.decode([UInt8](hex: hex))
            guard case .float(let d) = decoded else { return XCTFail("\(hex) is \(decoded)") }
            XCTAssertTrue(d.isNaN, hex)
            XCTAssertEqual(decoded, .float(.nan), hex)
            XCTAssertEqual(decoded.encoded().hex, "f97e00", hex)
            XCTAssertEqual(decoded.diagnosticDescription, "NaN")
        }
        XCTAssertEqual(CBOR.float(-.nan).encoded().hex, "f97e00")
        XCTAssertEqual(CBOR.float(.signalingNaN).encoded().hex, "f97e00")
        XCTAssertEqual(CBOR.float(Double(bitPattern: 0x7FF0_0000_0000_0001)).encoded().hex, "f97e00")
        XCTAssertEqual(Set<CBOR>([.float(.nan), .float(-.nan), .float(.signalingNaN)]).count, 1)
        XCTAssertEqual([CBOR.float(.nan)], [CBOR.float(.nan)])
    }

    func testEveryHalfPrecisionPatternRoundTripsExactly() throws {
        // All 65,536 patterns: decode, check the value independently, re-encode to the same bytes.
        for bits in UInt16(0)...UInt16.max {
            let bytes: [UInt8] = [0xF9, UInt8(bits >> 8), UInt8(bits & 0xFF)]
            let decoded = try decoder.decode(bytes)
            guard case .float(let d) = decoded else { return XCTFail("\(bytes.hex) is \(decoded)") }
            let expected = halfValue(bits)
            if expected.isNaN {
                XCTAssertTrue(d.isNaN, bytes.hex)
                XCTAssertEqual(decoded.encoded().hex, "f97e00")
            } else {
                XCTAssertEqual(d.bitPattern, expected.bitPattern, bytes.hex)
                XCTAssertEqual(decoded.encoded(), bytes, bytes.hex)
                // The same value sent as a single or a double comes back as a half.
                XCTAssertEqual(try decoder.decode(CBOR.float(Double(Float(d))).encoded()), decoded)
                var wide: [UInt8] = [0xFB]
                wide += withUnsafeBytes(of: d.bitPattern.bigEndian, Array.init)
                XCTAssertEqual(try decoder.decode(wide).encoded(), bytes, wide.hex)
            }
        }
    }

    func testSinglePrecisionPatternsReencodeInTheShortestExactWidth() throws {
        var rng = SplitMix64(seed: 32)
        var patterns: [UInt32] = [0, 0x8000_0000, 0x0000_0001, 0x8000_0001, 0x007F_FFFF, 0x0080_0000, 0x3380_0000,
                                  0x3380_2000, 0x3880_0000, 0x387F_E000, 0x477F_E000, 0x477F_F000, 0x4780_0000,
                                  0x7F7F_FFFF, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 0x3F80_0000, 0x33C0_0000]
        for _ in 0..<100_000 { patterns.append(UInt32(truncatingIfNeeded: rng.next())) }
        // Random patterns rarely hit halves: also random halves widened to singles.
        for _ in 0..<20_000 {
            let half = UInt16(truncatingIfNeeded: rng.next())
            let value = halfValue(half)
            if !value.isNaN { patterns.append(Float(value).bitPattern) }
        }
        var counts = (half: 0, single: 0, nan: 0)
        for bits in patterns {
            var bytes: [UInt8] = [0xFA]
            bytes += withUnsafeBytes(of: bits.bigEndian, Array.init)
            let decoded = try decoder.decode(bytes)
            let float = Float(bitPattern: bits)
            let reencoded = decoded.encoded()
            if float.isNaN {
                counts.nan += 1
                XCTAssertEqual(reencoded.hex, "f97e00", bytes.hex)
            } else if let half = halfBits(exactlyFloat32: bits) {
                counts.half += 1
                XCTAssertEqual(reencoded, [0xF9, UInt8(half >> 8), UInt8(half & 0xFF)], bytes.hex)
            } else {
                counts.single += 1
                XCTAssertEqual(reencoded, bytes, bytes.hex)
            }
            XCTAssertEqual(try decoder.decode(reencoded), decoded, bytes.hex)
        }
        XCTAssertGreaterThan(counts.half, 15_000)
        XCTAssertGreaterThan(counts.single, 90_000)
        XCTAssertGreaterThan(counts.nan, 100)
    }

    func testDoublePatternsReencodeInTheShortestExactWidth() throws {
        var rng = SplitMix64(seed: 64)
        var values: [Double] = [.leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
                                .greatestFiniteMagnitude, 0x1p-24, 0x1p-25, 0x1.8p-24, 0x1p-14, 0x1.ffcp15, 0x1.ffep15,
                                0x1p16, 0x1p-149, 0x1p-150, 0x1p-126, 0x1.fffffep127, 0x1.ffffffp127, 0x1p128]
        for _ in 0..<100_000 { values.append(Double(bitPattern: rng.next())) }
        for value in values where !value.isNaN {
            let encoded = CBOR.float(value).encoded()
            let decoded = try decoder.decode(encoded)
            XCTAssertEqual(decoded, .float(value))
            guard case .float(let d) = decoded else { return XCTFail() }
            XCTAssertEqual(d.bitPattern, value.bitPattern)
            let single = Float(value)
            let expectedCount: Int
            if Double(single) == value {
                expectedCount = halfBits(exactlyFloat32: single.bitPattern) != nil ? 3 : 5
            } else {
                expectedCount = 9
            }
            XCTAssertEqual(encoded.count, expectedCount, "\(value)")
        }
    }
}
