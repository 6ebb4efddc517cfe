/// Connection text that could not be parsed, saying by its case which branch of the grammar the
/// text took (``DeviceSelection``).
public enum ConnectionTextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A connection string of one device with a mistake (or text of no form at all).
    case connection(ConnectionStringError)
    /// A selector of many devices with a mistake of its own: a range that runs downwards, an
    /// unknown filter key, an option its devices do not take.
    case selector(SelectorError)

    /// What is wrong, in one line naming the text, as the CLI reports it.
    public var message: String {
        switch self {
        case .connection(let error): return error.description
        case .selector(let error): return error.message
        }
    }

    /// What to write instead: a connection string's accepted forms, or the selector's hint.
    public var hint: String? {
        switch self {
        case .connection(let error): return "accepted forms:\n" + error.hint
        case .selector(let error): return error.hint
        }
    }

    public var description: String { hint.map { "\(message)\n\($0)" } ?? message }
}
