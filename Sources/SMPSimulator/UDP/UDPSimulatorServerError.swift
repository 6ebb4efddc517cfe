/// Why a ``UDPSimulatorServer`` could not start.
public struct UDPSimulatorServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Hashable {
        /// The host is not a usable local address.
        case invalidAddress
        /// Another socket is bound to the port.
        case addressInUse
        /// The system refused (e.g. a port below 1024 without privileges).
        case permissionDenied
        /// The server is already running.
        case alreadyStarted
        /// Any other socket failure.
        case io
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
