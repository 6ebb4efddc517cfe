/// A SUIT manifest role (the `role` of SUIT commands 0 and 1): which manifest of the device's
/// hierarchy, as NCS numbers them (`enum suit_manifest_role`).
public struct SUITManifestRole: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The role number.
    public let rawValue: UInt64

    /// A role with this number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The Nordic top manifest (secure domain).
    public static let secureTop = SUITManifestRole(rawValue: 0x10)
    /// The application root manifest (what an application update replaces).
    public static let applicationRoot = SUITManifestRole(rawValue: 0x20)
    /// The first application-local manifest.
    public static let applicationLocal1 = SUITManifestRole(rawValue: 0x22)

    private static let names: [UInt64: String] = [
        0x10: "sec-top", 0x11: "sec-sdfw", 0x12: "sec-sysctrl",
        0x20: "app-root", 0x21: "app-recovery", 0x22: "app-local-1", 0x23: "app-local-2", 0x24: "app-local-3",
        0x30: "rad-recovery", 0x31: "rad-local-1", 0x32: "rad-local-2",
    ]

    /// The NCS name (`app-root`, `sec-sdfw`…), or nil for a number NCS does not name.
    public var name: String? { Self.names[rawValue] }

    /// Reads a role given as a name (`app-root`) or a number (`32`, `0x20`).
    public init?(parsing text: String) {
        let lowered = text.lowercased()
        if let entry = Self.names.first(where: { $0.value == lowered }) {
            self.init(rawValue: entry.key)
        } else if lowered.hasPrefix("0x"), let value = UInt64(lowered.dropFirst(2), radix: 16) {
            self.init(rawValue: value)
        } else if let value = UInt64(lowered) {
            self.init(rawValue: value)
        } else {
            return nil
        }
    }

    /// `app-root (0x20)`, or `0x40` for an unnamed role.
    public var description: String {
        let number = "0x" + String(rawValue, radix: 16)
        return name.map { "\($0) (\(number))" } ?? number
    }

    public static func < (lhs: SUITManifestRole, rhs: SUITManifestRole) -> Bool { lhs.rawValue < rhs.rawValue }
}
