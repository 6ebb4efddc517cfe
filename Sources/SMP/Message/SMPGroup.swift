/// A management group ID, with the well-known groups as constants.
public struct SMPGroup: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// OS / default group: echo, reset, task statistics, parameters, info, bootloader info.
    public static let os = SMPGroup(rawValue: 0)
    /// Image management.
    public static let image = SMPGroup(rawValue: 1)
    /// Statistics.
    public static let statistics = SMPGroup(rawValue: 2)
    /// Settings (formerly config).
    public static let settings = SMPGroup(rawValue: 3)
    /// Log (Mynewt).
    public static let log = SMPGroup(rawValue: 4)
    /// Crash (Mynewt).
    public static let crash = SMPGroup(rawValue: 5)
    /// Split image (Mynewt).
    public static let split = SMPGroup(rawValue: 6)
    /// Run-time tests (Mynewt).
    public static let run = SMPGroup(rawValue: 7)
    /// File system.
    public static let fileSystem = SMPGroup(rawValue: 8)
    /// Shell command execution.
    public static let shell = SMPGroup(rawValue: 9)
    /// Group enumeration (Zephyr ≥ 3.5).
    public static let enumeration = SMPGroup(rawValue: 10)
    /// Transport management (Zephyr 4.5, experimental).
    public static let transport = SMPGroup(rawValue: 11)
    /// Zephyr basic: storage erase.
    public static let zephyrBasic = SMPGroup(rawValue: 63)
    /// First application-defined group.
    public static let perUser = SMPGroup(rawValue: 64)
    /// SUIT (nRF Connect SDK).
    public static let suit = SMPGroup(rawValue: 66)
    /// Memfault (nRF Connect SDK).
    public static let memfault = SMPGroup(rawValue: 128)

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
