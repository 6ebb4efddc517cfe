import SMP

/// A value in the JSON description of an upgrade's device state, plan, step, upload or report:
/// what each kind of firmware says about itself, which a front end writes out as it likes (smpctl
/// as `--json` lines, docs/json-output.md). Objects keep their members' order.
public indirect enum UpgradeValue: Sendable, Equatable {
    /// No value (JSON `null`).
    case null
    /// A boolean.
    case bool(Bool)
    /// A whole number.
    case uint(UInt64)
    /// A text.
    case string(String)
    /// An array.
    case array([UpgradeValue])
    /// An object whose members keep their order.
    case object([UpgradeField])

    /// Bytes in hex, or `null` when there are none.
    public static func hex(_ bytes: [UInt8]?) -> UpgradeValue {
        bytes.map { .string(Hex.string($0)) } ?? .null
    }
}

/// One member of an ``UpgradeValue/object(_:)``: a key and its value.
public struct UpgradeField: Sendable, Equatable {
    /// The key.
    public var key: String
    /// The value.
    public var value: UpgradeValue

    /// Creates a member.
    public init(_ key: String, _ value: UpgradeValue) {
        self.key = key
        self.value = value
    }
}
