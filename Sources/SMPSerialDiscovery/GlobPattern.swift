/// A shell-style pattern of a selector (`serial:serial=E661*`, `ble:name=Zephyr-*`): `*` matches
/// any run of characters, `?` any one character; everything else matches itself.
public struct GlobPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    /// Whether letters match regardless of case.
    public let ignoringCase: Bool

    /// Creates a pattern.
    public init(_ pattern: String, ignoringCase: Bool) {
        self.pattern = pattern
        self.ignoringCase = ignoringCase
    }

    /// Whether `text` contains a wildcard character.
    public static func isPattern(_ text: some StringProtocol) -> Bool { text.contains("*") || text.contains("?") }

    /// Whether `text` matches the whole pattern.
    public func matches(_ text: String) -> Bool {
        let pattern = Array(ignoringCase ? self.pattern.lowercased() : self.pattern)
        let text = Array(ignoringCase ? text.lowercased() : text)
        // Iterative matching with one backtrack point (the last `*`): linear in practice, never exponential.
        var p = 0
        var t = 0
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    public var description: String { pattern }
}
