import CBOR
import XCTest

/// RFC 8949 Appendix A, Table 6: the definite-length rows, in both directions.
final class RFC8949VectorTests: XCTestCase {
    func testTableHasEveryDefiniteRow() {
        // 64 shortest-form rows + 6 wide float rows + 11 indefinite-length rows = the 81 rows of
        // RFC 8949's Table 6. (RFC 7049 also had simple(24) as f818, which RFC 8949 made not
        // well-formed; it is among the Appendix F examples.)
        XCTAssertEqual(RFC8949.shortestFormVectors.count, 64)
        XCTAssertEqual(RFC8949.wideFloatVectors.count, 6)
        XCTAssertEqual(RFC8949.indefiniteVectors.count, 11)
        XCTAssertEqual(Set(RFC8949.allEncodings.map(\.hex)).count, 81)
    }

    func testDecodingGivesTheValue() throws {
        for vector in RFC8949.shortestFormVectors {
            let decoded = try CBORDecoder().decode([UInt8](hex: vector.hex))
            XCTAssertEqual(decoded, vector.value, "decoding \(vector.hex)", line: vector.line)
        }
    }

    func testEncodingGivesTheExactBytes() {
        for vector in RFC8949.shortestFormVectors {
            XCTAssertEqual(vector.value.encoded().hex, vector.hex, "encoding \(vector.value)", line: vector.line)
        }
    }

    func testDiagnosticNotation() throws {
        for vector in RFC8949.shortestFormVectors {
            let decoded = try CBORDecoder().decode([UInt8](hex: vector.hex))
            XCTAssertEqual(decoded.diagnosticDescription, vector.expectedDiagnostic, line: vector.line)
            XCTAssertEqual(vector.value.description, vector.expectedDiagnostic, line: vector.line)
        }
    }

    func testDiagnosticDeviationsAreTheSameNumbersAndCharacters() throws {
        // Where our notation differs from the RFC's column, it is only in spelling.
        let deviating = RFC8949.shortestFormVectors.filter { $0.diagnostic != nil }
        XCTAssertEqual(deviating.count, 6)
        for vector in deviating {
            switch vector.value {
            case .float(let d):
                XCTAssertEqual(Double(vector.rfcDiagnostic), d)
                XCTAssertEqual(Double(vector.expectedDiagnostic), d)
            case .text(let s):
                XCTAssertEqual(vector.expectedDiagnostic, "\"\(s)\"")
            case .tagged(let tag, .bytes):
                XCTAssertTrue(tag == 2 || tag == 3, "bignum tags only")
            default:
                XCTFail("unexpected deviation \(vector.hex)", line: vector.line)
            }
        }
    }

    func testDecodedNumbersKeepTheirExactValues() throws {
        func decode(_ hex: String) throws -> CBOR { try CBORDecoder().decode([UInt8](hex: hex)) }
        XCTAssertEqual(try decode("1bffffffffffffffff").uint64Value, UInt64.max)
        XCTAssertEqual(try decode("3bffffffffffffffff"), .negative(UInt64.max))
        XCTAssertNil(try decode("3bffffffffffffffff").int64Value)
        XCTAssertEqual(try decode("3b7fffffffffffffff").int64Value, Int64.min)
        XCTAssertEqual(try decode("3903e7").intValue, -1000)
        XCTAssertEqual(try decode("fb3ff199999999999a").doubleValue, 1.1)
        XCTAssertEqual(try decode("f90001").doubleValue, 0x1p-24)
        XCTAssertEqual(try decode("f90400").doubleValue, 0x1p-14)
        XCTAssertEqual(try decode("f97bff").doubleValue, 65504)
        XCTAssertEqual(try decode("f98000").doubleValue?.sign, .minus)
        XCTAssertEqual(try decode("fa7f7fffff").doubleValue, Double(Float.greatestFiniteMagnitude))
        let nan = try decode("f97e00").doubleValue
        XCTAssertEqual(nan?.isNaN, true)
    }

    func testWideFloatsDecodeAndReencodeInTheShortestForm() throws {
        for vector in RFC8949.wideFloatVectors {
            let decoded = try CBORDecoder().decode([UInt8](hex: vector.hex))
            guard case .float(let d) = decoded else {
                XCTFail("\(vector.hex) decoded to \(decoded)")
                continue
            }
            if vector.value.isNaN {
                XCTAssertTrue(d.isNaN, vector.hex)
            } else {
                XCTAssertEqual(d, vector.value, vector.hex)
            }
            XCTAssertEqual(decoded.encoded().hex, vector.shortest, vector.hex)
            XCTAssertEqual(decoded.diagnosticDescription, d.isNaN ? "NaN" : (d > 0 ? "Infinity" : "-Infinity"))
        }
    }

    func testRoundTripThroughTheIndefiniteWriterKeepsEveryValue() throws {
        for vector in RFC8949.shortestFormVectors {
            var writer = CBORWriter(indefiniteContainers: true)
            writer.write(vector.value)
            XCTAssertEqual(try CBORDecoder().decode(writer.bytes), vector.value, vector.hex, line: vector.line)
        }
    }
}
