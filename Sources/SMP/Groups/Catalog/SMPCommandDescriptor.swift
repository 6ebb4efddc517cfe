/// One command of a management group: its ID, a name, and the typed commands that send it.
public struct SMPCommandDescriptor: Sendable {
    /// The command ID within the group.
    public let id: UInt8
    /// A short name, e.g. `status` (the name of the constant in the group's `…CommandID`).
    public let name: String
    /// The ``SMPCommand`` types that send this command (each names its `Response`); empty when
    /// the library has no typed request for it.
    public let types: [any SMPCommand.Type]

    /// Describes a command.
    public init(_ id: UInt8, _ name: String, _ types: [any SMPCommand.Type] = []) {
        self.id = id
        self.name = name
        self.types = types
    }
}
