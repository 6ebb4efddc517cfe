/// CRC-16/XMODEM (poly 0x1021, init 0, no reflection).
///
/// The checksum of the serial ("SMP over console") framing: Zephyr's `crc16_itu_t(0, …)`,
/// MCUboot's `crc16_ccitt(0, …)`. Check value: `checksum("123456789".utf8) == 0x31C3`. The
/// checksum of a message followed by its own checksum (big-endian) is 0, which is how receivers
/// verify a packet.
public enum CRC16XMODEM {
    /// The checksum of `bytes`, continuing from `seed` (the checksum of the bytes before them, or
    /// 0 to start).
    public static func checksum(_ bytes: some Sequence<UInt8>, seed: UInt16 = 0) -> UInt16 {
        if let crc = bytes.withContiguousStorageIfAvailable({ update(seed, $0) }) { return crc }
        var crc = seed
        table.withUnsafeBufferPointer { table in
            for byte in bytes {
                crc = (crc << 8) ^ table[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ byte)]
            }
        }
        return crc
    }

    /// The checksum of a buffer, continuing from `crc`.
    static func update(_ crc: UInt16, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt16 {
        var crc = crc
        table.withUnsafeBufferPointer { table in
            for byte in bytes {
                crc = (crc << 8) ^ table[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ byte)]
            }
        }
        return crc
    }

    /// One entry per value of the top byte: its contribution after 8 shifts.
    private static let table: [UInt16] = (0..<256).map { index in
        var crc = UInt16(index) << 8
        for _ in 0..<8 {
            crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
        }
        return crc
    }
}
