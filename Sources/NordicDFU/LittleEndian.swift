/// Little-endian integers in Secure and legacy DFU messages.
enum LittleEndian {
    /// The bytes of `value`, least significant first.
    static func bytes<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        (0..<(Value.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    /// The `count`-byte value at `offset`; the caller has checked that the bytes are there.
    static func value(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
        (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << ($1 * 8) }
    }
}
