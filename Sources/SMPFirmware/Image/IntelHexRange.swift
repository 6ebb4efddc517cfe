/// One contiguous run of addresses an Intel HEX file gives data for.
public struct IntelHexRange: Sendable, Equatable, CustomStringConvertible {
    /// The first address.
    public var address: UInt32
    /// The number of bytes (at least 1).
    public var count: Int
    /// Whether the range's first bytes are the MCUboot image magic (`0x96f3b83d` little-endian).
    public var startsWithMCUbootMagic: Bool

    /// Creates a range description.
    public init(address: UInt32, count: Int, startsWithMCUbootMagic: Bool) {
        self.address = address
        self.count = count
        self.startsWithMCUbootMagic = startsWithMCUbootMagic
    }

    /// The last address (inclusive).
    public var lastAddress: UInt64 { UInt64(address) + UInt64(count) - 1 }

    /// `0x0000c000–0x0001ffff (81920 bytes)`, with `, an MCUboot image` when it starts with the magic.
    public var description: String {
        let kind = startsWithMCUbootMagic ? ", an MCUboot image" : ""
        return "\(MCUbootHex.literal(address, width: 8))–\(MCUbootHex.literal(lastAddress, width: 8)) (\(count) bytes\(kind))"
    }
}
