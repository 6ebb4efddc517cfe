/// A selector of many devices with a mistake: what is wrong, naming the selector, and what to write.
public struct SelectorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in one line naming the selector.
    public var message: String
    /// What to write instead; may span lines.
    public var hint: String?

    /// Creates an error.
    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    public var description: String { hint.map { "\(message)\n\($0)" } ?? message }
}
