/// A JSON value as read from an NCS `manifest.json`: objects keep their key order.
///
/// The parser is strict RFC 8259 JSON with one extension: an unquoted hexadecimal integer
/// (`0x00010000`), which some NCS generators write for `load_address`. Strings are never altered.
public enum ManifestJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    /// An integer literal (decimal or `0x…`) that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    case string(String)
    case array([ManifestJSON])
    case object([(String, ManifestJSON)])

    public static func == (lhs: ManifestJSON, rhs: ManifestJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: return false
        }
    }

    /// The first member named `key`, for objects.
    public subscript(key: String) -> ManifestJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// A short name of the value's type, for error messages.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Parses `bytes` (UTF-8) as one JSON document.
    public static func parse(_ bytes: [UInt8]) throws(ManifestJSONSyntaxError) -> ManifestJSON {
        var parser = ManifestJSONParser(bytes)
        return try parser.document()
    }
}

/// A JSON syntax error with the 1-based line and column (in bytes) where it was found.
public struct ManifestJSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var problem: String

    public var description: String { "line \(line), column \(column): \(problem)" }
}

/// The recursive-descent parser behind ``ManifestJSON/parse(_:)``.
private struct ManifestJSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private let maximumDepth = 32

    init(_ bytes: [UInt8]) {
        // A UTF-8 byte order mark is tolerated.
        self.bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }

    mutating func document() throws(ManifestJSONSyntaxError) -> ManifestJSON {
        let result = try value(depth: 0)
        skipSpace()
        guard index == bytes.count else { throw fail("unexpected text after the JSON value") }
        return result
    }

    private func fail(_ problem: String) -> ManifestJSONSyntaxError {
        let end = min(index, bytes.count)
        let before = bytes[..<end]
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        return ManifestJSONSyntaxError(line: line, column: end - lineStart + 1, problem: problem)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let byte = current, [0x20, 0x0A, 0x0D, 0x09].contains(byte) { index += 1 }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(ManifestJSONSyntaxError) {
        skipSpace()
        guard current == byte else { throw fail(current == nil ? "unexpected end of text, expected \(what)" : "expected \(what)") }
        index += 1
    }

    private mutating func value(depth: Int) throws(ManifestJSONSyntaxError) -> ManifestJSON {
        guard depth < maximumDepth else { throw fail("nested deeper than \(maximumDepth) levels") }
        skipSpace()
        guard let byte = current else { throw fail("unexpected end of text, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("unexpected character '\(Unicode.Scalar(byte))'")
        }
    }

    private mutating func literal(_ word: String, _ result: ManifestJSON) throws(ManifestJSONSyntaxError) -> ManifestJSON {
        let expected = Array(word.utf8)
        guard bytes[index...].starts(with: expected) else { throw fail("invalid literal, expected \(word)") }
        index += expected.count
        return result
    }

    private mutating func object(depth: Int) throws(ManifestJSONSyntaxError) -> ManifestJSON {
        index += 1
        var members: [(String, ManifestJSON)] = []
        skipSpace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let key = try string()
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

    private mutating func array(depth: Int) throws(ManifestJSONSyntaxError) -> ManifestJSON {
        index += 1
        var items: [ManifestJSON] = []
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

    private mutating func string() throws(ManifestJSONSyntaxError) -> String {
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else { throw fail("unterminated string") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                let text = String(decoding: utf8, as: UTF8.self)
                guard text.utf8.elementsEqual(utf8) else { throw fail("string is not valid UTF-8") }
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

    private mutating func escape(into utf8: inout [UInt8]) throws(ManifestJSONSyntaxError) {
        guard let byte = current else { throw fail("unterminated string") }
        index += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let replacement = simple[byte] {
            utf8.append(replacement)
            return
        }
        guard byte == UInt8(ascii: "u") else { throw fail("invalid escape sequence") }
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

    private mutating func hexQuad() throws(ManifestJSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw fail("expected four hex digits after \\u")
        }
        index += 4
        return value
    }

    private mutating func number() throws(ManifestJSONSyntaxError) -> ManifestJSON {
        let start = index
        if bytes[index...].starts(with: Array("0x".utf8)) || bytes[index...].starts(with: Array("0X".utf8)) {
            index += 2
            let digitsStart = index
            while let byte = current, Self.isHexDigit(byte) { index += 1 }
            guard index > digitsStart,
                  let value = UInt64(String(decoding: bytes[digitsStart..<index], as: UTF8.self), radix: 16),
                  let signed = Int64(exactly: value)
            else { throw fail("invalid hexadecimal number") }
            return .integer(signed)
        }
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, Self.isDigit(first) else { throw fail("invalid number") }
        if first == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let byte = current, Self.isDigit(byte) else { throw fail("invalid number: digits expected after '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let byte = current, Self.isDigit(byte) else { throw fail("invalid number: digits expected in the exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text) else { throw fail("invalid number") }
        return .number(value)
    }

    private mutating func skipDigits() {
        while let byte = current, Self.isDigit(byte) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}
