import SMPTestSupport
import CBOR
import XCTest

/// Diagnostic notation (RFC 8949 §8).
final class CBORDiagnosticTests: XCTestCase {
    func testFloatsAlwaysShowAFractionAndAShortExponent() {
        let cases: [(Double, String)] = [
            (0, "0.0"), (-0.0, "-0.0"), (1, "1.0"), (1e16, "1.0e+16"), (1.5e16, "1.5e+16"), (1e-5, "1.0e-5"),
            (0.0001, "0.0001"), (1e300, "1.0e+300"), (-1e-300, "-1.0e-300"), (.leastNonzeroMagnitude, "5.0e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"), (123.25, "123.25"), (.infinity, "Infinity"),
            (-.infinity, "-Infinity"), (.nan, "NaN"),
        ]
        for (value, text) in cases {
            XCTAssertEqual(CBOR.float(value).diagnosticDescription, text)
            if value.isFinite { XCTAssertEqual(Double(text), value, text) }
        }
    }

    func testFloatNotationReadsBackAsTheSameDouble() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<20_000 {
            let value = Double(bitPattern: rng.next())
            guard value.isFinite else { continue }
            let text = CBOR.float(value).diagnosticDescription
            XCTAssertEqual(Double(text)?.bitPattern, value.bitPattern, text)
            XCTAssertTrue(text.contains("."), text)
            XCTAssertFalse(text.contains("e+0") || text.contains("e-0"), text)
        }
    }

    func testIntegersStringsAndContainers() {
        XCTAssertEqual(CBOR.negative(.max).diagnosticDescription, "-18446744073709551616")
        XCTAssertEqual(CBOR.negative(.max - 1).diagnosticDescription, "-18446744073709551615")
        XCTAssertEqual(CBOR.unsigned(.max).diagnosticDescription, "18446744073709551615")
        XCTAssertEqual(CBOR.text("a\"b\\c\n\r\t\u{1}\u{1f}").diagnosticDescription, "\"a\\\"b\\\\c\\n\\r\\t\\u0001\\u001f\"")
        XCTAssertEqual(CBOR.bytes([0x00, 0xAB, 0xFF]).diagnosticDescription, "h'00abff'")
        let nested: CBOR = ["r": "hi", "n": [1, .bytes([0xFF])], 2: .tagged(24, .simple(99)), -3: [nil, .undefined, true]]
        XCTAssertEqual(nested.diagnosticDescription,
                       "{\"r\": \"hi\", \"n\": [1, h'ff'], 2: 24(simple(99)), -3: [null, undefined, true]}")
        XCTAssertEqual("\(nested)", nested.diagnosticDescription)
    }
}
