/// Why a simulator server (``UDPSimulatorServer`` or ``PTYSimulatorServer``) could not start.
public struct SimulatorServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Hashable {
        /// UDP: the host is not a usable local address.
        case invalidAddress
        /// UDP: another socket is bound to the port.
        case addressInUse
        /// UDP: the system refused (e.g. a port below 1024 without privileges).
        case permissionDenied
        /// UDP: any other socket failure.
        case io
        /// Serial: no pseudo-terminal could be made.
        case pseudoTerminal
        /// Serial: the link path is taken by something that is not a symbolic link, or cannot be made.
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
