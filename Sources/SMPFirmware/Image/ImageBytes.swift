extension Array where Element == UInt8 {
    /// The little-endian `UInt16` at `offset`; the caller has checked that two bytes are there.
    func imageUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    /// The little-endian `UInt32` at `offset`; the caller has checked that four bytes are there.
    func imageUInt32(at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(self[offset + $1]) << (8 * UInt32($1)) }
    }
}

/// The `0x…` numbers image reports and errors show (bytes are shown with `Hex.string` of SMP).
public enum MCUbootHex {
    /// `0x` and at least `width` lowercase hexadecimal digits (`0x0200`).
    public static func literal(_ value: some BinaryInteger, width: Int = 1) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
