import CBOR
import XCTest

/// Two items are equal exactly when they have the same shortest-form encoding.
final class CBOREqualityTests: XCTestCase {
    private let samples: [CBOR] = [
        0, 1, -1, .unsigned(.max), .negative(.max), .bytes([]), .bytes([0x61]), "", "a", "\u{e9}", "e\u{301}",
        "\u{212b}", "\u{c5}", "A\u{30a}", [], [0], [[]], .map([:]), [0: 0], [0: 0, 1: 1], [1: 1, 0: 0], [0: 0, 0: 0],
        .tagged(0, 0), .tagged(1, 0), false, true, nil, .undefined, .simple(0), .simple(19), .simple(32),
        .simple(255), 0.0, -0.0, 1.0, .float(.nan), .float(.infinity), .float(-.infinity), 1.1, .float(0x1p-1074),
    ]

    func testEqualityIsEqualityOfEncodings() {
        for a in samples {
            for b in samples {
                XCTAssertEqual(a == b, a.encoded() == b.encoded(), "\(a) vs \(b)")
                if a == b { XCTAssertEqual(a.hashValue, b.hashValue, "\(a) vs \(b)") }
            }
        }
    }

    func testEqualityIsReflexiveForEveryItem() {
        for item in samples {
            XCTAssertEqual(item, item)
            XCTAssertTrue(Set([item]).contains(item), "\(item)")
        }
        var random = RandomCBOR(seed: 7)
        for index in 0..<2_000 {
            let item = random.item()
            XCTAssertTrue(item == item, "random item \(index)")
            XCTAssertEqual(Set([item, item]).count, 1, "random item \(index)")
        }
    }

    func testTextComparesByBytesNotByUnicodeEquivalence() throws {
        // Swift's String == says these are equal; as CBOR they are different strings and keys.
        XCTAssertEqual("\u{e9}", "e\u{301}" as String)
        XCTAssertNotEqual(CBOR.text("\u{e9}"), CBOR.text("e\u{301}"))
        XCTAssertNotEqual(CBOR.text("\u{212b}"), CBOR.text("\u{c5}"))
        XCTAssertEqual(Set<CBOR>(["\u{e9}", "e\u{301}", "\u{e9}"]).count, 2)

        let map: CBOR = ["e\u{301}": 1, "\u{e9}": 2]
        XCTAssertEqual(map.mapValue?.duplicateKeys, [])
        XCTAssertEqual(map["\u{e9}"], 2)
        XCTAssertEqual(map["e\u{301}"], 1)
        let strict = CBORDecoder(rejectDuplicateKeys: true)
        XCTAssertEqual(try strict.decode(map.encoded()), map)
    }

    func testSignedZerosAreDifferentItems() {
        XCTAssertNotEqual(CBOR.float(0.0), CBOR.float(-0.0))
        XCTAssertEqual(Set<CBOR>([0.0, -0.0]).count, 2)
        XCTAssertNotEqual(CBOR.float(1.0), CBOR.int(1))
    }

    func testMapOrderAndDuplicatesMatter() {
        XCTAssertNotEqual(CBOR.map([0: 0, 1: 1]), CBOR.map([1: 1, 0: 0]))
        XCTAssertNotEqual(CBOR.map([0: 0]), CBOR.map([0: 0, 0: 0]))
        var map = CBORMap()
        map["b"] = 1
        map["a"] = 2
        map["b"] = 3
        XCTAssertEqual(map, ["b": 3, "a": 2])
        map["b"] = nil
        XCTAssertEqual(map, ["a": 2])
        map.append(key: "a", value: 4)
        XCTAssertEqual(map.duplicateKeys, ["a"])
        XCTAssertEqual(map["a"], 2)
    }
}
