/// Splits a command line into arguments the way a POSIX shell does, without expansions.
///
/// - Blanks (spaces, tabs, newlines) separate words.
/// - `'…'` keeps everything inside literally.
/// - `"…"` keeps everything inside, except that a backslash escapes `"`, `\`, `$` and the backtick.
/// - A backslash outside quotes keeps the next character literally.
/// - `''` and `""` make an empty argument.
public enum ShellWords {
    /// The arguments in `line`; throws for an unterminated quote or a trailing backslash.
    public static func split(_ line: String) throws(ShellWordsError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var characters = Array(line).makeIterator()
        var position = 0
        while let character = characters.next() {
            position += 1
            switch character {
            case " ", "\t", "\n", "\r":
                if inWord { words.append(current) }
                current = ""
                inWord = false
            case "'":
                inWord = true
                let start = position
                while true {
                    guard let next = characters.next() else { throw .unterminatedQuote("'", column: start) }
                    position += 1
                    if next == "'" { break }
                    current.append(next)
                }
            case "\"":
                inWord = true
                let start = position
                while true {
                    guard let next = characters.next() else { throw .unterminatedQuote("\"", column: start) }
                    position += 1
                    if next == "\"" { break }
                    if next == "\\" {
                        guard let escaped = characters.next() else { throw .unterminatedQuote("\"", column: start) }
                        position += 1
                        if !"\"\\$`".contains(escaped) { current.append("\\") }
                        current.append(escaped)
                    } else {
                        current.append(next)
                    }
                }
            case "\\":
                guard let escaped = characters.next() else { throw .trailingBackslash }
                position += 1
                inWord = true
                current.append(escaped)
            default:
                inWord = true
                current.append(character)
            }
        }
        if inWord { words.append(current) }
        return words
    }
}

/// A command line that cannot be split into arguments.
public enum ShellWordsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A quote (`'` or `"`) opened at this column (1-based) is never closed.
    case unterminatedQuote(Character, column: Int)
    /// The line ends with a backslash that escapes nothing.
    case trailingBackslash

    public var description: String {
        switch self {
        case .unterminatedQuote(let quote, let column):
            return "unterminated \(quote) quote (opened at column \(column)); close it with \(quote)"
        case .trailingBackslash:
            return "the line ends with a backslash that escapes nothing; remove it or escape it as \\\\"
        }
    }
}
