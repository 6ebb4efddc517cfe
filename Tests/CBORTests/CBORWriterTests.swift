import CBOR
import XCTest

/// The writer picks the shortest head for every argument and the narrowest exact float width.
final class CBORWriterTests: XCTestCase {
    /// Each argument boundary with the head bytes (after the initial byte's major type bits).
    private let boundaries: [(argument: UInt64, head: String)] = [
        (0, "00"), (23, "17"), (24, "1818"), (255, "18ff"), (256, "190100"), (65_535, "19ffff"),
        (65_536, "1a00010000"), (0xFFFF_FFFF, "1affffffff"), (0x1_0000_0000, "1b0000000100000000"),
        (UInt64.max, "1bffffffffffffffff"),
    ]

    func testHeadsOfEveryMajorTypeAtEveryBoundary() {
        for major in UInt8(0)...7 {
            for (argument, head) in boundaries {
                var writer = CBORWriter()
                writer.writeHead(major: major, argument: argument)
                var expected = [UInt8](hex: head)
                expected[0] |= major << 5
                XCTAssertEqual(writer.bytes, expected, "major \(major) argument \(argument)")
            }
        }
    }

    func testIntegersAtEveryBoundary() throws {
        for (argument, head) in boundaries {
            XCTAssertEqual(CBOR.unsigned(argument).encoded().hex, head)
            var negative = [UInt8](hex: head)
            negative[0] |= 0x20
            XCTAssertEqual(CBOR.negative(argument).encoded(), negative)
            XCTAssertEqual(try CBORDecoder().decode(negative), .negative(argument))
        }
    }

    func testIntegerConstructors() {
        XCTAssertEqual(CBOR.int(0), .unsigned(0))
        XCTAssertEqual(CBOR.int(-1), .negative(0))
        XCTAssertEqual(CBOR.int(.max), .unsigned(UInt64(Int64.max)))
        XCTAssertEqual(CBOR.int(.min), .negative(UInt64(Int64.max)))
        XCTAssertEqual(CBOR.integer(Int8.min), .negative(127))
        XCTAssertEqual(CBOR.integer(UInt8.max), .unsigned(255))
        XCTAssertEqual(CBOR.integer(Int64.min), .negative(UInt64(Int64.max)))
        XCTAssertEqual(CBOR.integer(UInt64.max), .unsigned(.max))
        XCTAssertEqual(CBOR.integer(-1 as Int), .negative(0))
        XCTAssertEqual(CBOR.int(-1_000).encoded().hex, "3903e7")
        XCTAssertEqual(CBOR.int(.min).int64Value, .min)
        XCTAssertEqual(CBOR.negative(.max).doubleValue, -0x1p64)
        XCTAssertNil(CBOR.unsigned(UInt64(Int64.max) + 1).int64Value)
    }

    func testIntegerConstructorCoversTheWholeNegativeRange() {
        // Major type 1 reaches -2^64, below Int64.min: wider integer types get there too.
        if #available(macOS 15, *) {
            XCTAssertEqual(CBOR.integer(-(Int128(1) << 64)), .negative(.max))
            XCTAssertEqual(CBOR.integer(Int128(Int64.min) - 1), .negative(1 << 63))
            XCTAssertEqual(CBOR.integer(UInt128(UInt64.max)), .unsigned(.max))
        }
    }

    func testStringAndContainerLengthsAtHeadBoundaries() throws {
        for length in [0, 23, 24, 255, 256, 65_535, 65_536] {
            let bytes = [UInt8](repeating: 0xAB, count: length)
            let encoded = CBOR.bytes(bytes).encoded()
            var head = CBORWriter()
            head.writeHead(major: 2, argument: UInt64(length))
            XCTAssertEqual(Array(encoded.prefix(head.bytes.count)), head.bytes)
            XCTAssertEqual(encoded.count, head.bytes.count + length)
            XCTAssertEqual(try CBORDecoder().decode(encoded), .bytes(bytes))

            let text = CBOR.text(String(repeating: "z", count: length)).encoded()
            XCTAssertEqual(text[0] & 0x1F, head.bytes[0] & 0x1F, "length \(length)")

            if length <= 256 {
                let array = CBOR.array(Array(repeating: 0, count: length)).encoded()
                XCTAssertEqual(array[0] & 0x1F, head.bytes[0] & 0x1F)
                var map = CBORMap()
                for i in 0..<length { map.append(key: .int(Int64(i)), value: nil) }
                let encodedMap = CBOR.map(map).encoded()
                XCTAssertEqual(encodedMap[0], 0xA0 | (head.bytes[0] & 0x1F))
                XCTAssertEqual(try CBORDecoder().decode(encodedMap), .map(map))
            }
        }
    }

    func testTextIsWrittenAsItsExactUTF8Bytes() {
        XCTAssertEqual(CBOR.text("\u{e9}").encoded().hex, "62c3a9")
        XCTAssertEqual(CBOR.text("e\u{301}").encoded().hex, "6365cc81")
        XCTAssertEqual(CBOR.text("\r\n").encoded().hex, "620d0a")
        XCTAssertEqual(CBOR.text("\u{0}").encoded().hex, "6100")
        XCTAssertEqual(CBOR.text("\u{feff}").encoded().hex, "63efbbbf")
    }

    func testFloatWidths() {
        let cases: [(Double, String)] = [
            (0.0, "f90000"), (-0.0, "f98000"), (1.0, "f93c00"), (65504, "f97bff"), (65505, "fa477fe100"),
            (65520, "fa477ff000"), (0x1p-24, "f90001"), (0x1p-25, "fa33000000"), (0x1.8p-24, "fa33c00000"),
            (0x1p-14, "f90400"), (0x1.ff8p-15, "f903ff"), (Double(Float.leastNonzeroMagnitude), "fa00000001"),
            (Double(Float.greatestFiniteMagnitude), "fa7f7fffff"), (0x1p128, "fb47f0000000000000"),
            (1e-300, "fb01a56e1fc2f8f359"), (.infinity, "f97c00"), (-.infinity, "f9fc00"),
            (.leastNonzeroMagnitude, "fb0000000000000001"), (100_000, "fa47c35000"), (0.1, "fb3fb999999999999a"),
            (Double(Float(0.1)), "fa3dcccccd"), (-2.5, "f9c100"),
        ]
        for (value, hex) in cases {
            XCTAssertEqual(CBOR.float(value).encoded().hex, hex, "\(value)")
        }
    }

    func testSimpleValuesAndTheirAliases() throws {
        for value in UInt8(0)...19 {
            XCTAssertEqual(CBOR.simple(value).encoded(), [0xE0 | value])
        }
        for value in UInt8(32)...255 {
            XCTAssertEqual(CBOR.simple(value).encoded(), [0xF8, value])
            XCTAssertEqual(try CBORDecoder().decode([0xF8, value]), .simple(value))
        }
        // 20–23 are false, true, null and undefined in any spelling.
        let aliases: [(UInt8, CBOR)] = [(20, false), (21, true), (22, nil), (23, .undefined)]
        for (value, item) in aliases {
            XCTAssertEqual(CBOR.simple(value).encoded(), item.encoded())
            XCTAssertEqual(CBOR.simple(value), item)
            XCTAssertEqual(CBOR.simple(value).hashValue, item.hashValue)
            XCTAssertEqual(CBOR.simple(value).diagnosticDescription, item.diagnosticDescription)
            XCTAssertEqual(try CBORDecoder().decode(CBOR.simple(value).encoded()), item)
        }
    }

    func testTagsAndMapsKeepTheirOrder() {
        let item: CBOR = .tagged(55_799, ["z": 1, "a": 2, 10: [], "z": 3])
        XCTAssertEqual(item.encoded().hex, "d9d9f7a4617a01616102" + "0a80" + "617a03")
    }

    func testWriterAppendsItemsOneAfterAnother() throws {
        var writer = CBORWriter()
        writer.write(1)
        writer.write("a")
        writer.beginIndefiniteMap()
        writer.write("k")
        writer.writeIndefiniteText(["v"])
        writer.writeBreak()
        XCTAssertEqual(writer.bytes.hex, "01" + "6161" + "bf616b7f6176ffff")
        let decoder = CBORDecoder(allowTrailingBytes: true)
        let third = try decoder.decodePrefix(Array(writer.bytes[3...]))
        XCTAssertEqual(third.item, ["k": "v"])
        XCTAssertEqual(third.consumed, 8)
    }
}
