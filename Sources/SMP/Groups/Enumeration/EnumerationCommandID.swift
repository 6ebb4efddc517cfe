/// Command IDs of the enumeration group (10, Zephyr ≥ 3.5).
public enum EnumerationCommandID {
    /// How many groups the device has.
    public static let count: UInt8 = 0
    /// The IDs of all groups.
    public static let list: UInt8 = 1
    /// The group at one index.
    public static let single: UInt8 = 2
    /// Name and handler count of some or all groups.
    public static let details: UInt8 = 3
}
