/// A management group ID. The well-known groups' constants (`.os`, `.fileSystem` …) are declared
/// with their descriptors, in `Groups/<Group>/SMPGroupDescriptor+<Group>.swift`.
public struct SMPGroup: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// First application-defined group.
    public static let perUser = SMPGroup(rawValue: 64)

    /// This group's descriptor in ``SMPGroupCatalog``, if the group is known.
    public var descriptor: SMPGroupDescriptor? { SMPGroupCatalog.descriptor(for: self) }

    /// A short name ("os", "image", …), or nil for groups without one.
    public var name: String? { descriptor?.name }

    /// Looks a group up by its short name or its number.
    public init?(name: String) {
        if let number = UInt16(name) {
            self.init(rawValue: number)
        } else if let descriptor = SMPGroupCatalog.descriptor(named: name) {
            self = descriptor.group
        } else {
            return nil
        }
    }

    /// All named groups, by number.
    public static var known: [SMPGroup] { SMPGroupCatalog.all.map(\.group) }

    public var description: String { name.map { "\($0) (\(rawValue))" } ?? "group \(rawValue)" }

    public static func < (lhs: SMPGroup, rhs: SMPGroup) -> Bool { lhs.rawValue < rhs.rawValue }
}
