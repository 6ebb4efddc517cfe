/// A strict JSON parser (RFC 8259) with byte offsets in its errors and a depth limit.
struct JSONParser {
    struct Failure: Error, CustomStringConvertible {
        var offset: Int
        var problem: String
        var description: String { "invalid JSON at character \(offset + 1): \(problem)" }
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private let maximumDepth = 64

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    static func parse(_ text: String) throws(Failure) -> JSONValue {
        var parser = JSONParser(text)
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.scalars.count else { throw parser.fail("unexpected text after the value") }
        return value
    }

    private func fail(_ problem: String) -> Failure { Failure(offset: index, problem: problem) }

    private mutating func skipSpace() {
        while index < scalars.count, [" ", "\n", "\r", "\t"].contains(scalars[index]) { index += 1 }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard depth < maximumDepth else { throw fail("nested deeper than \(maximumDepth) levels") }
        skipSpace()
        guard index < scalars.count else { throw fail("unexpected end of input") }
        switch scalars[index] {
        case "{": return try object(depth: depth)
        case "[": return try array(depth: depth)
        case "\"": return .string(try string())
        case "t": return try literal("true", .bool(true))
        case "f": return try literal("false", .bool(false))
        case "n": return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(Failure) -> JSONValue {
        let end = index + word.unicodeScalars.count
        guard end <= scalars.count, String(String.UnicodeScalarView(scalars[index..<end])) == word else {
            throw fail("unexpected character \"\(scalars[index])\"")
        }
        index = end
        return value
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        var keys: Set<[UInt8]> = []
        skipSpace()
        if index < scalars.count, scalars[index] == "}" {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < scalars.count, scalars[index] == "\"" else { throw fail("expected a quoted key") }
            let keyOffset = index
            let key = try string()
            // RFC 8259 leaves repeated names to the receiver; a device would see a map with one key twice.
            // (Compared as UTF-8: keys that differ only in Unicode normalisation are different keys.)
            guard keys.insert(Array(key.utf8)).inserted else { index = keyOffset; throw fail("the key \"\(key)\" appears twice") }
            skipSpace()
            guard index < scalars.count, scalars[index] == ":" else { throw fail("expected : after the key") }
            index += 1
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard index < scalars.count else { throw fail("unexpected end of input in an object") }
            if scalars[index] == "," { index += 1; continue }
            if scalars[index] == "}" { index += 1; return .object(members) }
            throw fail("expected , or } in an object")
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if index < scalars.count, scalars[index] == "]" {
            index += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard index < scalars.count else { throw fail("unexpected end of input in an array") }
            if scalars[index] == "," { index += 1; continue }
            if scalars[index] == "]" { index += 1; return .array(items) }
            throw fail("expected , or ] in an array")
        }
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        var result = String.UnicodeScalarView()
        while index < scalars.count {
            let c = scalars[index]
            index += 1
            switch c {
            case "\"": return String(result)
            case "\\":
                guard index < scalars.count else { break }
                let escape = scalars[index]
                index += 1
                switch escape {
                case "\"", "\\", "/": result.append(escape)
                case "b": result.append("\u{08}")
                case "f": result.append("\u{0C}")
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "t": result.append("\t")
                case "u": result.append(try unicodeEscape())
                default: throw fail("invalid escape \\\(escape)")
                }
            default:
                guard c.value >= 0x20 else { throw fail("control character in a string") }
                result.append(c)
            }
        }
        throw fail("unterminated string")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= scalars.count, let value = UInt32(String(String.UnicodeScalarView(scalars[index..<index + 4])), radix: 16) else {
            throw fail("expected four hex digits after \\u")
        }
        index += 4
        return value
    }

    private mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar {
        let first = try hex4()
        if (0xD800..<0xDC00).contains(first) {
            guard index + 2 <= scalars.count, scalars[index] == "\\", scalars[index + 1] == "u" else {
                throw fail("unpaired surrogate")
            }
            index += 2
            let second = try hex4()
            guard (0xDC00..<0xE000).contains(second),
                  let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            else { throw fail("invalid surrogate pair") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else { throw fail("invalid \\u escape") }
        return scalar
    }

    /// `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`; an integer (no fraction, no exponent)
    /// must fit in 64 bits, so that no integer is sent rounded.
    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        func digits() -> Int {
            let first = index
            while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
            return index - first
        }
        if index < scalars.count, scalars[index] == "-" { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { throw fail(index < scalars.count ? "unexpected character \"\(scalars[index])\"" : "unexpected end of input") }
        guard integerDigits == 1 || scalars[integerStart] != "0" else { index = integerStart; throw fail("a number with a leading zero") }
        var isInteger = true
        if index < scalars.count, scalars[index] == "." {
            index += 1
            isInteger = false
            guard digits() > 0 else { throw fail("expected digits after the decimal point") }
        }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            index += 1
            isInteger = false
            if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
            guard digits() > 0 else { throw fail("expected digits in the exponent") }
        }
        let text = String(String.UnicodeScalarView(scalars[start..<index]))
        if isInteger {
            if let value = Int64(text) { return .int(value) }
            if let value = UInt64(text) { return .uint(value) }
            index = start
            throw fail("the integer \(text) does not fit in 64 bits")
        }
        guard let value = Double(text), value.isFinite else { index = start; throw fail("the number \(text) is out of range") }
        return .double(value)
    }
}
