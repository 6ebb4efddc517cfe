import CBOR

/// One row of RFC 8949 Appendix A, Table 6.
struct RFCVector: Sendable {
    /// The encoding printed in the RFC.
    let hex: String
    /// The decoded item.
    let value: CBOR
    /// Our diagnostic notation of the item; nil where it equals the RFC's "Diagnostic" column.
    let diagnostic: String?
    /// The RFC's diagnostic notation.
    let rfcDiagnostic: String
    let line: UInt

    init(_ hex: String, _ value: CBOR, _ rfcDiagnostic: String, ours: String? = nil, line: UInt = #line) {
        self.hex = hex
        self.value = value
        self.rfcDiagnostic = rfcDiagnostic
        self.diagnostic = ours
        self.line = line
    }

    /// The diagnostic notation ``CBOR/diagnosticDescription`` must produce.
    var expectedDiagnostic: String { diagnostic ?? rfcDiagnostic }
}

/// RFC 8949 Appendix A: every row of Table 6 except the indefinite-length ones, in the RFC's order.
///
/// RFC 7049 also listed `simple(24)` as `0xf818`; RFC 8949 dropped it because that encoding is not
/// well-formed (it is among the Appendix F tests).
enum RFC8949 {
    /// Rows whose encoding is the shortest form: decoding gives `value`, encoding `value` gives `hex`.
    static let shortestFormVectors: [RFCVector] = [
        RFCVector("00", 0, "0"),
        RFCVector("01", 1, "1"),
        RFCVector("0a", 10, "10"),
        RFCVector("17", 23, "23"),
        RFCVector("1818", 24, "24"),
        RFCVector("1819", 25, "25"),
        RFCVector("1864", 100, "100"),
        RFCVector("1903e8", 1000, "1000"),
        RFCVector("1a000f4240", 1_000_000, "1000000"),
        RFCVector("1b000000e8d4a51000", 1_000_000_000_000, "1000000000000"),
        RFCVector("1bffffffffffffffff", .unsigned(18_446_744_073_709_551_615), "18446744073709551615"),
        RFCVector("c249010000000000000000", .tagged(2, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0])),
                  "18446744073709551616", ours: "2(h'010000000000000000')"),
        RFCVector("3bffffffffffffffff", .negative(18_446_744_073_709_551_615), "-18446744073709551616"),
        RFCVector("c349010000000000000000", .tagged(3, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0])),
                  "-18446744073709551617", ours: "3(h'010000000000000000')"),
        RFCVector("20", -1, "-1"),
        RFCVector("29", -10, "-10"),
        RFCVector("3863", -100, "-100"),
        RFCVector("3903e7", -1000, "-1000"),
        RFCVector("f90000", 0.0, "0.0"),
        RFCVector("f98000", -0.0, "-0.0"),
        RFCVector("f93c00", 1.0, "1.0"),
        RFCVector("fb3ff199999999999a", 1.1, "1.1"),
        RFCVector("f93e00", 1.5, "1.5"),
        RFCVector("f97bff", 65504.0, "65504.0"),
        RFCVector("fa47c35000", 100_000.0, "100000.0"),
        RFCVector("fa7f7fffff", 3.4028234663852886e+38, "3.4028234663852886e+38"),
        RFCVector("fb7e37e43c8800759c", 1.0e+300, "1.0e+300"),
        RFCVector("f90001", 5.960464477539063e-8, "5.960464477539063e-8"),
        // The same number; Swift's shortest digits come in exponent form below 1e-4.
        RFCVector("f90400", 0.00006103515625, "0.00006103515625", ours: "6.103515625e-5"),
        RFCVector("f9c400", -4.0, "-4.0"),
        RFCVector("fbc010666666666666", -4.1, "-4.1"),
        RFCVector("f97c00", .float(.infinity), "Infinity"),
        RFCVector("f97e00", .float(.nan), "NaN"),
        RFCVector("f9fc00", .float(-.infinity), "-Infinity"),
        RFCVector("f4", false, "false"),
        RFCVector("f5", true, "true"),
        RFCVector("f6", nil, "null"),
        RFCVector("f7", .undefined, "undefined"),
        RFCVector("f0", .simple(16), "simple(16)"),
        RFCVector("f8ff", .simple(255), "simple(255)"),
        RFCVector("c074323031332d30332d32315432303a30343a30305a", .tagged(0, "2013-03-21T20:04:00Z"),
                  "0(\"2013-03-21T20:04:00Z\")"),
        RFCVector("c11a514b67b0", .tagged(1, 1_363_896_240), "1(1363896240)"),
        RFCVector("c1fb41d452d9ec200000", .tagged(1, 1_363_896_240.5), "1(1363896240.5)"),
        RFCVector("d74401020304", .tagged(23, .bytes([1, 2, 3, 4])), "23(h'01020304')"),
        RFCVector("d818456449455446", .tagged(24, .bytes([0x64, 0x49, 0x45, 0x54, 0x46])), "24(h'6449455446')"),
        RFCVector("d82076687474703a2f2f7777772e6578616d706c652e636f6d", .tagged(32, "http://www.example.com"),
                  "32(\"http://www.example.com\")"),
        RFCVector("40", .bytes([]), "h''"),
        RFCVector("4401020304", .bytes([1, 2, 3, 4]), "h'01020304'"),
        RFCVector("60", "", "\"\""),
        RFCVector("6161", "a", "\"a\""),
        RFCVector("6449455446", "IETF", "\"IETF\""),
        RFCVector("62225c", "\"\\", "\"\\\"\\\\\""),
        // The RFC escapes non-ASCII characters JSON-style; diagnostic notation allows them literally.
        RFCVector("62c3bc", "\u{00fc}", "\"\\u00fc\"", ours: "\"\u{00fc}\""),
        RFCVector("63e6b0b4", "\u{6c34}", "\"\\u6c34\"", ours: "\"\u{6c34}\""),
        RFCVector("64f0908591", "\u{10151}", "\"\\ud800\\udd51\"", ours: "\"\u{10151}\""),
        RFCVector("80", [], "[]"),
        RFCVector("83010203", [1, 2, 3], "[1, 2, 3]"),
        RFCVector("8301820203820405", [1, [2, 3], [4, 5]], "[1, [2, 3], [4, 5]]"),
        RFCVector("98190102030405060708090a0b0c0d0e0f101112131415161718181819",
                  .array((1...25).map { CBOR.int(Int64($0)) }),
                  "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25]"),
        RFCVector("a0", .map([:]), "{}"),
        RFCVector("a201020304", [1: 2, 3: 4], "{1: 2, 3: 4}"),
        RFCVector("a26161016162820203", ["a": 1, "b": [2, 3]], "{\"a\": 1, \"b\": [2, 3]}"),
        RFCVector("826161a161626163", ["a", ["b": "c"]], "[\"a\", {\"b\": \"c\"}]"),
        RFCVector("a56161614161626142616361436164614461656145", ["a": "A", "b": "B", "c": "C", "d": "D", "e": "E"],
                  "{\"a\": \"A\", \"b\": \"B\", \"c\": \"C\", \"d\": \"D\", \"e\": \"E\"}"),
    ]

    /// Rows whose float encoding is wider than needed: decoding works, re-encoding gives `shortest`.
    static let wideFloatVectors: [(hex: String, value: Double, shortest: String)] = [
        ("fa7f800000", .infinity, "f97c00"),
        ("fa7fc00000", .nan, "f97e00"),
        ("faff800000", -.infinity, "f9fc00"),
        ("fb7ff0000000000000", .infinity, "f97c00"),
        ("fb7ff8000000000000", .nan, "f97e00"),
        ("fbfff0000000000000", -.infinity, "f9fc00"),
    ]

    /// The indefinite-length rows: encoding, decoded item, the RFC's diagnostic notation.
    static let indefiniteVectors: [(hex: String, value: CBOR, rfcDiagnostic: String)] = [
        ("5f42010243030405ff", .bytes([1, 2, 3, 4, 5]), "(_ h'0102', h'030405')"),
        ("7f657374726561646d696e67ff", "streaming", "(_ \"strea\", \"ming\")"),
        ("9fff", [], "[_ ]"),
        ("9f018202039f0405ffff", [1, [2, 3], [4, 5]], "[_ 1, [2, 3], [_ 4, 5]]"),
        ("9f01820203820405ff", [1, [2, 3], [4, 5]], "[_ 1, [2, 3], [4, 5]]"),
        ("83018202039f0405ff", [1, [2, 3], [4, 5]], "[1, [2, 3], [_ 4, 5]]"),
        ("83019f0203ff820405", [1, [2, 3], [4, 5]], "[1, [_ 2, 3], [4, 5]]"),
        ("9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", .array((1...25).map { CBOR.int(Int64($0)) }),
         "[_ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25]"),
        ("bf61610161629f0203ffff", ["a": 1, "b": [2, 3]], "{_ \"a\": 1, \"b\": [_ 2, 3]}"),
        ("826161bf61626163ff", ["a", ["b": "c"]], "[\"a\", {_ \"b\": \"c\"}]"),
        ("bf6346756ef563416d7421ff", ["Fun": true, "Amt": -2], "{_ \"Fun\": true, \"Amt\": -2}"),
    ]

    /// Every encoding of Appendix A, for seed corpora and truncation tests.
    static var allEncodings: [[UInt8]] {
        shortestFormVectors.map { [UInt8](hex: $0.hex) } + wideFloatVectors.map { [UInt8](hex: $0.hex) }
            + indefiniteVectors.map { [UInt8](hex: $0.hex) }
    }
}
