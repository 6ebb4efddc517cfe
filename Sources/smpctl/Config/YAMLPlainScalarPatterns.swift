/// YAML 1.1's patterns for what a plain scalar is when it is not text (as libyaml's users such as
/// Yams resolve them), matched by hand over the UTF-8 bytes: a regular expression engine would
/// add megabytes to the binary for these few patterns.
enum YAMLPlainScalarPatterns {
    /// Whether `text` as a whole is a null, a boolean, an integer, a float, a timestamp, the
    /// merge key `<<` or the value key `=`.
    static func matchesAnotherType(_ text: String) -> Bool {
        if words.contains(text) { return true }
        let bytes = Array(text.utf8)
        let patterns: [(inout Cursor) -> Bool] = [
            { $0.sign(); return $0.literal("0b") && $0.run(binary, minimum: 1) },
            { cursor in
                cursor.sign()
                guard cursor.literal("0") else { return false }
                _ = cursor.literal("o")
                return cursor.run(octal, minimum: 1)
            },
            { $0.sign(); return $0.literal("0") || ($0.run(nonZeroDigit, minimum: 1, maximum: 1) && $0.run(decimal)) },
            { $0.sign(); return $0.literal("0x") && $0.run(hexadecimal, minimum: 1) },
            { $0.sign(); return $0.run(nonZeroDigit, minimum: 1, maximum: 1) && $0.run(decimal) && $0.sexagesimalGroups() },
            { cursor in
                cursor.sign()
                guard cursor.run(digit, minimum: 1, maximum: 1), cursor.run(decimal) else { return false }
                if cursor.literal(".") { _ = cursor.run(decimal) }
                if cursor.literal("e") || cursor.literal("E") {
                    cursor.sign()
                    return cursor.run(digit, minimum: 1)
                }
                return true
            },
            { cursor in
                guard cursor.literal("."), cursor.run(decimal, minimum: 1) else { return false }
                guard cursor.literal("e") || cursor.literal("E") else { return true }
                return cursor.run(signCharacter, minimum: 1, maximum: 1) && cursor.run(digit, minimum: 1)
            },
            { cursor in
                cursor.sign()
                return cursor.run(digit, minimum: 1, maximum: 1) && cursor.run(decimal) && cursor.sexagesimalGroups() && cursor.literal(".")
                    && cursor.run(decimal)
            },
            { $0.sign(); return $0.literal(".inf") || $0.literal(".Inf") || $0.literal(".INF") },
            { $0.literal(".nan") || $0.literal(".NaN") || $0.literal(".NAN") },
            { $0.date(dayDigits: 2, monthDigits: 2) },
            { cursor in
                guard cursor.date(dayDigits: 1, monthDigits: 1) else { return false }
                guard cursor.literal("T") || cursor.literal("t") || cursor.run(blank, minimum: 1) else { return false }
                guard cursor.run(digit, minimum: 1, maximum: 2), cursor.literal(":"), cursor.run(digit, minimum: 2, maximum: 2), cursor.literal(":"),
                    cursor.run(digit, minimum: 2, maximum: 2)
                else { return false }
                if cursor.literal(".") { _ = cursor.run(digit) }
                let zoneStart = cursor.position
                _ = cursor.run(blank)
                if cursor.literal("Z") { return true }
                if cursor.run(signCharacter, minimum: 1, maximum: 1) {
                    guard cursor.run(digit, minimum: 1, maximum: 2) else { return false }
                    return !cursor.literal(":") || cursor.run(digit, minimum: 2, maximum: 2)
                }
                cursor.position = zoneStart
                return true
            },
        ]
        return patterns.contains { pattern in
            var cursor = Cursor(bytes: bytes)
            return pattern(&cursor) && cursor.atEnd
        }
    }

    /// The patterns that are fixed words: null, the booleans, the merge and value keys.
    private static let words: Set<String> = [
        "", "~", "null", "Null", "NULL", "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF", "<<", "=",
    ]

    private static func digit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func nonZeroDigit(_ byte: UInt8) -> Bool { (0x31...0x39).contains(byte) }
    private static func decimal(_ byte: UInt8) -> Bool { digit(byte) || byte == 0x5F }
    private static func binary(_ byte: UInt8) -> Bool { byte == 0x30 || byte == 0x31 || byte == 0x5F }
    private static func octal(_ byte: UInt8) -> Bool { (0x30...0x37).contains(byte) || byte == 0x5F }
    private static func hexadecimal(_ byte: UInt8) -> Bool { decimal(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) }
    private static func signCharacter(_ byte: UInt8) -> Bool { byte == 0x2B || byte == 0x2D }
    private static func blank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// A position in the bytes, moved forward by what each step takes.
    private struct Cursor {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position == bytes.count }

        /// Takes an optional `+` or `-`.
        mutating func sign() { _ = run(YAMLPlainScalarPatterns.signCharacter, minimum: 0, maximum: 1) }

        /// Takes `text` when the bytes go on with it.
        mutating func literal(_ text: String) -> Bool {
            let expected = Array(text.utf8)
            guard bytes.count - position >= expected.count, bytes[position..<position + expected.count].elementsEqual(expected) else { return false }
            position += expected.count
            return true
        }

        /// Takes as many bytes passing `test` as there are, up to `maximum`; whether there were at least `minimum`.
        mutating func run(_ test: (UInt8) -> Bool, minimum: Int = 0, maximum: Int = .max) -> Bool {
            var count = 0
            while count < maximum, position < bytes.count, test(bytes[position]) {
                position += 1
                count += 1
            }
            return count >= minimum
        }

        /// One or more `:5` or `:59` (a digit, or two with the first from 0 to 5).
        mutating func sexagesimalGroups() -> Bool {
            var groups = 0
            while literal(":") {
                if position + 1 < bytes.count, (0x30...0x35).contains(bytes[position]), YAMLPlainScalarPatterns.digit(bytes[position + 1]) {
                    position += 2
                } else if !run(YAMLPlainScalarPatterns.digit, minimum: 1, maximum: 1) {
                    return false
                }
                groups += 1
            }
            return groups > 0
        }

        /// `YYYY-M-D`, with at least `monthDigits` and `dayDigits` digits (and at most 2).
        mutating func date(dayDigits: Int, monthDigits: Int) -> Bool {
            run(YAMLPlainScalarPatterns.digit, minimum: 4, maximum: 4) && literal("-")
                && run(YAMLPlainScalarPatterns.digit, minimum: monthDigits, maximum: 2) && literal("-")
                && run(YAMLPlainScalarPatterns.digit, minimum: dayDigits, maximum: 2)
        }
    }
}
