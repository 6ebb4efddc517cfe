/// Why a ``PTYSimulatorServer`` could not start.
public struct PTYSimulatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Hashable {
        /// No pseudo-terminal could be made.
        case pseudoTerminal
        /// The link path is taken by something that is not a symbolic link, or cannot be made.
        case link
        /// The server is already running.
        case alreadyStarted
    }

    /// The kind of failure.
    public var kind: Kind
    /// What happened, where.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
