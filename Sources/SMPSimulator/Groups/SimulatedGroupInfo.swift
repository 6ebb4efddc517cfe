import SMP

/// What a device tells about one of its groups: ID, name and handler count (enumeration, docs/protocol/groups.md §11).
public struct SimulatedGroupInfo: Sendable, Hashable {
    /// The group ID.
    public var group: SMPGroup
    /// Its name.
    public var name: String
    /// How many command handlers it has.
    public var handlerCount: Int

    /// Creates the description of a group.
    public init(group: SMPGroup, name: String, handlerCount: Int) {
        self.group = group
        self.name = name
        self.handlerCount = handlerCount
    }

    /// Describes a group the way it describes itself.
    public init(_ group: any SimulatedGroup) {
        self.init(group: group.group, name: group.name, handlerCount: group.handlerCount)
    }

    /// The `mg_group_name` Zephyr gives its groups (the descriptor's ``SMPGroupDescriptor/firmwareName``);
    /// the short name (or "group N") for the others.
    static func zephyrName(of group: SMPGroup) -> String {
        let descriptor = group.descriptor
        return descriptor?.firmwareName ?? descriptor?.name ?? "group \(group.rawValue)"
    }
}
