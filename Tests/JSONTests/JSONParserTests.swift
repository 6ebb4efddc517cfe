import JSON
import XCTest

/// The one JSON reader and writer: RFC 8259's examples, exact numbers, escapes both ways,
/// and errors that say what is wrong and where.
final class JSONParserTests: XCTestCase {
    private func problem(_ text: String, options: JSONParsingOptions = JSONParsingOptions()) -> String {
        do {
            let value = try JSONValue.parse(text, options: options)
            return "parsed: \(value.serialized())"
        } catch {
            return "\(error.line):\(error.column) (\(error.character)) \(error.problem)"
        }
    }

    func testRFC8259ExamplesParseAndKeepTheirOrder() throws {
        // The first example of RFC 8259 §13 (shortened), and scalar texts as RFC 8259 §2 allows them.
        let image = try JSONValue.parse(#"""
            {"Image": {"Width": 800, "Height": 600, "Title": "View from 15th Floor",
              "Thumbnail": {"Url": "http://www.example.com/image/481989943", "Height": 125, "Width": 100},
              "Animated" : false, "IDs": [116, 943, 234, 38793]}}
            """#)
        XCTAssertEqual(
            image.serialized(),
            #"{"Image":{"Width":800,"Height":600,"Title":"View from 15th Floor","Thumbnail":{"Url":"http://www.example.com/image/481989943","Height":125,"Width":100},"Animated":false,"IDs":[116,943,234,38793]}}"#)
        XCTAssertEqual(image["Image"]?["IDs"], .array([.int(116), .int(943), .int(234), .int(38793)]))
        XCTAssertEqual(try JSONValue.parse(#""Hello world!""#), .string("Hello world!"))
        XCTAssertEqual(try JSONValue.parse(" 42 "), .int(42))
        XCTAssertEqual(try JSONValue.parse("true"), .bool(true))
        XCTAssertEqual(try JSONValue.parse("null"), .null)
    }

    func testNumbersStayExact() throws {
        XCTAssertEqual(try JSONValue.parse("-9223372036854775808"), .int(.min))
        XCTAssertEqual(try JSONValue.parse("18446744073709551615"), .uint(.max))
        XCTAssertEqual(try JSONValue.parse("-0.5e-3").serialized(), "-0.0005")
        XCTAssertEqual(try JSONValue.parse("1E2").serialized(), "100.0")
        XCTAssertEqual(problem("18446744073709551616"), "1:1 (1) the integer 18446744073709551616 does not fit in 64 bits")
        XCTAssertEqual(problem("[-9223372036854775809]"), "1:2 (2) the integer -9223372036854775809 does not fit in 64 bits")
        XCTAssertEqual(problem("1e999"), "1:1 (1) the number 1e999 is out of range")
        XCTAssertEqual(problem("[01]"), "1:2 (2) a number with a leading zero")
        XCTAssertEqual(problem("-01"), "1:2 (2) a number with a leading zero")
        XCTAssertEqual(problem("1."), "1:3 (3) expected digits after the decimal point")
        XCTAssertEqual(problem("1e+"), "1:4 (4) expected digits in the exponent")
        XCTAssertEqual(problem("+1"), "1:1 (1) unexpected character '+'")
        XCTAssertEqual(problem("-"), "1:2 (2) unexpected end of text, expected a value")
        XCTAssertEqual(problem(".5"), "1:1 (1) unexpected character '.'")
    }

    func testHexadecimalIntegersOnlyWhereAllowed() throws {
        let manifest = JSONParsingOptions(allowsHexadecimalIntegers: true)
        XCTAssertEqual(try JSONValue.parse("[0x00010000, 0XfF, 0xFFFFFFFFFFFFFFFF]", options: manifest).serialized(), "[65536,255,18446744073709551615]")
        XCTAssertEqual(problem("0x", options: manifest), "1:3 (3) invalid hexadecimal number")
        XCTAssertEqual(problem("0x1ffffffffffffffff", options: manifest), "1:20 (20) invalid hexadecimal number")
        XCTAssertEqual(problem("0x10"), "1:2 (2) unexpected text after the JSON value")
    }

    func testEscapesAreReadAndWritten() throws {
        let value = try JSONValue.parse(#"{"a": "x\"\\\/\n\u00e9\ud83d\ude00\b\f\r\t"}"#)
        XCTAssertEqual(value["a"], .string("x\"\\/\né😀\u{08}\u{0C}\r\t"))
        XCTAssertEqual(value.serialized(), #"{"a":"x\"\\/\né😀\u0008\u000c\r\t"}"#)
        XCTAssertEqual(JSONValue.quoted("\u{01}\u{1F} é"), #""\u0001\u001f é""#)
        XCTAssertEqual(try JSONValue.parse(JSONValue.string("\u{00}\u{7F}\u{2028}").serialized()), .string("\u{00}\u{7F}\u{2028}"))
        XCTAssertEqual(problem(#""\x""#), #"1:3 (3) invalid escape \x"#)
        XCTAssertEqual(problem("\"\\\u{7F}\""), "1:3 (3) invalid escape sequence")
        XCTAssertEqual(problem(#""\ud83d""#), "1:8 (8) unpaired surrogate in \\u escape")
        XCTAssertEqual(problem(#""\ud83d\u0041""#), "1:14 (14) unpaired surrogate in \\u escape")
        XCTAssertEqual(problem(#""\u12G4""#), "1:4 (4) expected four hex digits after \\u")
        XCTAssertEqual(problem("\"a\tb\""), "1:3 (3) control character in a string")
        XCTAssertEqual(problem("\"abc"), "1:5 (5) unterminated string")
    }

    func testInvalidUTF8IsRefusedAndAByteOrderMarkSkipped() throws {
        XCTAssertThrowsError(try JSONValue.parse([0x22, 0xC3, 0x28, 0x22])) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.problem, "the string is not valid UTF-8")
        }
        XCTAssertEqual(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)), .array([.int(1)]))
    }

    func testStructureErrorsSayWhatWasExpected() {
        XCTAssertEqual(problem(""), "1:1 (1) unexpected end of text, expected a value")
        XCTAssertEqual(problem("{"), "1:2 (2) unexpected end of text, expected a string key")
        XCTAssertEqual(problem(#"{"d":"hi",}"#), "1:11 (11) expected a string key")
        XCTAssertEqual(problem(#"{"d" 1}"#), "1:6 (6) expected ':' after the key")
        XCTAssertEqual(problem(#"{"d":1 "e":2}"#), "1:8 (8) expected ',' or '}'")
        XCTAssertEqual(problem("[1 2]"), "1:4 (4) expected ',' or ']'")
        XCTAssertEqual(problem("[1,]"), "1:4 (4) unexpected character ']'")
        XCTAssertEqual(problem("tru"), "1:1 (1) invalid literal, expected true")
        XCTAssertEqual(problem("{} x"), "1:4 (4) unexpected text after the JSON value")
        XCTAssertEqual(problem("'a'"), "1:1 (1) unexpected character '''")
        XCTAssertEqual(problem("[é]"), "1:2 (2) unexpected character 'é'")
    }

    func testARepeatedKeyIsAnErrorAtTheSecondKey() {
        XCTAssertEqual(problem(#"{"d":"a","d":"b"}"#), #"1:10 (10) the key "d" appears twice"#)
        // Keys that differ only in Unicode normalisation are different keys.
        XCTAssertEqual(problem("{\"\u{E9}\":1,\"e\u{301}\":2}"), "parsed: {\"\u{E9}\":1,\"e\u{301}\":2}")
    }

    func testPositionsCountLinesAndCharactersNotBytes() {
        XCTAssertEqual(problem("{\n  \"é\": [1,\n   ,2]}"), "3:4 (17) unexpected character ','")
        XCTAssertEqual(problem(#"["é😀", x]"#), "1:8 (8) unexpected character 'x'")
    }

    func testNestingIsLimited() throws {
        XCTAssertEqual(try JSONValue.parse(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)).serialized().count, 128)
        XCTAssertEqual(problem(String(repeating: "[", count: 65)), "1:65 (65) nested deeper than 64 levels")
        XCTAssertEqual(problem("[[[1]]]", options: JSONParsingOptions(maximumDepth: 2)), "1:3 (3) nested deeper than 2 levels")
    }

    func testValuesCompareByTheirTextAndNameTheirKind() {
        XCTAssertEqual(JSONValue.int(5), JSONValue.uint(5))
        XCTAssertNotEqual(JSONValue.int(5), JSONValue.double(5))
        XCTAssertEqual(JSONValue.double(.infinity).serialized(), "null")
        XCTAssertEqual([JSONValue.null, .bool(true), .int(1), .string(""), .array([]), .object([])].map(\.typeName),
                       ["null", "a boolean", "a number", "a string", "an array", "an object"])
        XCTAssertNil(JSONValue.array([])["a"])
    }
}
