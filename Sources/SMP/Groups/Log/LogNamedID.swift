/// A log module or level: its name and number.
public struct LogNamedID: Sendable, Hashable {
    /// The name (`"DEFAULT"`, `"INFO"`…).
    public var name: String
    /// The number entries carry.
    public var id: Int64

    /// Creates a pair.
    public init(name: String, id: Int64) {
        self.name = name
        self.id = id
    }
}
