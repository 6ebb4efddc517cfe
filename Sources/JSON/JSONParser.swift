/// What ``JSONValue/parse(_:options:)`` accepts beyond strict RFC 8259 JSON, and how deep.
public struct JSONParsingOptions: Sendable {
    /// Whether an unquoted hexadecimal integer (`0x00010000`) is read as a number, as some
    /// NCS generators write `load_address` in `manifest.json`.
    public var allowsHexadecimalIntegers: Bool
    /// How deeply arrays and objects may nest.
    public var maximumDepth: Int

    /// Strict JSON, nested at most `maximumDepth` levels.
    public init(allowsHexadecimalIntegers: Bool = false, maximumDepth: Int = 64) {
        self.allowsHexadecimalIntegers = allowsHexadecimalIntegers
        self.maximumDepth = maximumDepth
    }
}

/// Text that is not JSON: what is wrong and where.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line.
    public var line: Int
    /// The 1-based column in the line, in characters (Unicode scalars).
    public var column: Int
    /// The 1-based position from the start of the text, in characters: for one-line text.
    public var character: Int
    /// What is wrong, in words.
    public var problem: String

    public var description: String { "line \(line), column \(column): \(problem)" }
}

extension JSONValue {
    /// Parses `text` as one JSON document.
    public static func parse(_ text: String, options: JSONParsingOptions = JSONParsingOptions()) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8), options: options)
    }

    /// Parses `bytes` (UTF-8; a leading byte order mark is skipped) as one JSON document.
    /// Repeated keys in an object, integers beyond 64 bits, numbers beyond `Double`'s range,
    /// invalid UTF-8 and unpaired surrogates are errors, never silently altered values.
    public static func parse(_ bytes: [UInt8], options: JSONParsingOptions = JSONParsingOptions()) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes, options: options)
        let result = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.atEnd else { throw parser.fail("unexpected text after the JSON value") }
        return result
    }
}

/// The recursive-descent parser behind ``JSONValue/parse(_:options:)``, over UTF-8 bytes.
private struct JSONParser {
    private let bytes: [UInt8]
    private let options: JSONParsingOptions
    private var index = 0

    init(_ bytes: [UInt8], options: JSONParsingOptions) {
        self.bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        self.options = options
    }

    var atEnd: Bool { index >= bytes.count }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    func fail(_ problem: String) -> JSONSyntaxError {
        let before = bytes[..<min(index, bytes.count)]
        // Characters are counted by their first byte (UTF-8 continuation bytes are 10xxxxxx).
        func characters(_ part: ArraySlice<UInt8>) -> Int { part.reduce(0) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 } }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        return JSONSyntaxError(
            line: before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }, column: characters(before[lineStart...]) + 1,
            character: characters(before) + 1, problem: problem)
    }

    mutating func skipSpace() {
        while let byte = current, [0x20, 0x0A, 0x0D, 0x09].contains(byte) { index += 1 }
    }

    /// "unexpected character 'c'" where a value was expected, or the end of the text.
    private func unexpectedCharacter() -> JSONSyntaxError {
        guard index < bytes.count else { return fail("unexpected end of text, expected a value") }
        let scalar = String(decoding: bytes[index..<min(index + 4, bytes.count)], as: UTF8.self).unicodeScalars.first
        return fail("unexpected character '\(scalar.map { String($0) } ?? "?")'")
    }

    /// "expected `what`", or that the text ended before it.
    private func expected(_ what: String) -> JSONSyntaxError {
        fail(atEnd ? "unexpected end of text, expected \(what)" : "expected \(what)")
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < options.maximumDepth else { throw fail("nested deeper than \(options.maximumDepth) levels") }
        skipSpace()
        guard let byte = current else { throw unexpectedCharacter() }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw unexpectedCharacter()
        }
    }

    private mutating func literal(_ word: String, _ result: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let expected = Array(word.utf8)
        guard bytes[index...].starts(with: expected) else { throw fail("invalid literal, expected \(word)") }
        index += expected.count
        return result
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        // RFC 8259 leaves repeated names to the receiver; here they are an error, so that no
        // value is silently dropped. (Compared as UTF-8: keys that differ only in Unicode
        // normalisation are different keys.)
        var keys: Set<[UInt8]> = []
        skipSpace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw expected("a string key") }
            let keyStart = index
            let key = try string()
            guard keys.insert(Array(key.utf8)).inserted else {
                index = keyStart
                throw fail("the key \(JSONValue.quoted(key)) appears twice")
            }
            try expect(UInt8(ascii: ":"), "':' after the key")
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"), "',' or '}'")
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth + 1))
            skipSpace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "]"), "',' or ']'")
            return .array(items)
        }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
        skipSpace()
        guard current == byte else { throw expected(what) }
        index += 1
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else { throw fail("unterminated string") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                let text = String(decoding: utf8, as: UTF8.self)
                guard text.utf8.elementsEqual(utf8) else { throw fail("the string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &utf8)
            case 0..<0x20:
                index -= 1
                throw fail("control character in a string")
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(JSONSyntaxError) {
        guard let byte = current else { throw fail("unterminated string") }
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let replacement = simple[byte] {
            index += 1
            utf8.append(replacement)
            return
        }
        guard byte == UInt8(ascii: "u") else {
            throw fail(byte > 0x20 && byte < 0x7F ? "invalid escape \\\(Unicode.Scalar(byte))" : "invalid escape sequence")
        }
        index += 1
        var scalar = try hexQuad()
        if (0xD800..<0xDC00).contains(scalar) {
            guard bytes[index...].starts(with: Array("\\u".utf8)) else { throw fail("unpaired surrogate in \\u escape") }
            index += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate in \\u escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw fail("unpaired surrogate in \\u escape") }
        utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
    }

    private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count, bytes[index..<index + 4].allSatisfy(Self.isHexDigit),
              let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw fail("expected four hex digits after \\u") }
        index += 4
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`, and `0x…` where allowed. An integer
    /// must fit in 64 bits, so that no integer is read rounded.
    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        if options.allowsHexadecimalIntegers, bytes[index...].starts(with: Array("0x".utf8)) || bytes[index...].starts(with: Array("0X".utf8)) {
            index += 2
            let digitsStart = index
            while let byte = current, Self.isHexDigit(byte) { index += 1 }
            guard index > digitsStart, let value = UInt64(String(decoding: bytes[digitsStart..<index], as: UTF8.self), radix: 16) else {
                throw fail("invalid hexadecimal number")
            }
            return Int64(exactly: value).map(JSONValue.int) ?? .uint(value)
        }
        if current == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        skipDigits()
        guard index > integerStart else { throw unexpectedCharacter() }
        guard index - integerStart == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
            index = integerStart
            throw fail("a number with a leading zero")
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let byte = current, Self.isDigit(byte) else { throw fail("expected digits after the decimal point") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let byte = current, Self.isDigit(byte) else { throw fail("expected digits in the exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger {
            if let value = Int64(text) { return .int(value) }
            if let value = UInt64(text) { return .uint(value) }
            index = start
            throw fail("the integer \(text) does not fit in 64 bits")
        }
        guard let value = Double(text), value.isFinite else {
            index = start
            throw fail("the number \(text) is out of range")
        }
        return .double(value)
    }

    private mutating func skipDigits() {
        while let byte = current, Self.isDigit(byte) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}
