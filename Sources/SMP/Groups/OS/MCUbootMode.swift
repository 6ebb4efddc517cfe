/// MCUboot's upgrade mode as reported by bootloader info (`enum mcuboot_mode`).
public struct MCUbootMode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int64

    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Zephyr reports -1 for configurations it does not map.
    public static let unknown = MCUbootMode(rawValue: -1)
    /// Single application slot; updates only through serial recovery or a loader.
    public static let singleSlot = MCUbootMode(rawValue: 0)
    /// Swap using a scratch area; test and revert supported.
    public static let swapUsingScratch = MCUbootMode(rawValue: 1)
    /// Overwrite only: the secondary is copied over the primary; no revert.
    public static let overwriteOnly = MCUbootMode(rawValue: 2)
    /// Swap using move (without scratch); test and revert supported.
    public static let swapUsingMove = MCUbootMode(rawValue: 3)
    /// Direct execute-in-place from either slot; the highest version boots; no revert.
    public static let directXIP = MCUbootMode(rawValue: 4)
    /// Direct execute-in-place with test, confirm and revert.
    public static let directXIPWithRevert = MCUbootMode(rawValue: 5)
    /// The image is copied to RAM and run there.
    public static let ramLoad = MCUbootMode(rawValue: 6)
    /// Single application slot plus a separate firmware-loader image.
    public static let firmwareLoader = MCUbootMode(rawValue: 7)
    /// Single slot loaded to RAM.
    public static let singleSlotRAMLoad = MCUbootMode(rawValue: 8)
    /// Swap using offset; test and revert supported.
    public static let swapUsingOffset = MCUbootMode(rawValue: 9)

    private static let names: [Int64: (String, String)] = [
        -1: ("unknown", "the device did not map its MCUboot configuration to a mode"),
        0: ("single-slot", "one application slot, no swap; update through serial recovery or a loader"),
        1: ("swap-using-scratch", "swap through a scratch area; test, confirm and revert supported"),
        2: ("overwrite-only", "the new image overwrites the old one; no revert"),
        3: ("swap-using-move", "swap without scratch; test, confirm and revert supported"),
        4: ("direct-xip", "runs in place from either slot; the highest version boots; no revert"),
        5: ("direct-xip-with-revert", "runs in place from either slot, with test, confirm and revert"),
        6: ("ram-load", "the image is copied to RAM and runs there"),
        7: ("firmware-loader", "one application slot plus a separate firmware loader that performs updates"),
        8: ("single-slot-ram-load", "one slot, loaded to RAM"),
        9: ("swap-using-offset", "swap using an offset; test, confirm and revert supported"),
    ]

    /// A short name ("swap-using-move"), or "mode N" for values this tool does not know.
    public var name: String { Self.names[rawValue]?.0 ?? "mode \(rawValue)" }

    /// What the mode means for an upgrade.
    public var meaning: String { Self.names[rawValue]?.1 ?? "a mode this tool does not know; assume swap behaviour" }

    /// Whether an uploaded image must be marked for test and confirmed after the reset.
    public var supportsRevert: Bool { [1, 3, 5, 9].contains(rawValue) }

    public var description: String { "\(name) (\(rawValue))" }
}
