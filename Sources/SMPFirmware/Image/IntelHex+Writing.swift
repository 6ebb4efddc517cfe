extension IntelHex {
    /// One record as a line without its line ending: `:`, byte count, address, type, data and
    /// checksum in uppercase hexadecimal.
    public static func record(type: UInt8, address: UInt16, data: [UInt8]) -> String {
        let bytes = [UInt8(truncatingIfNeeded: data.count), UInt8(address >> 8), UInt8(address & 0xFF), type] + data
        let checksum = 0 &- bytes.reduce(UInt8(0), &+)
        return ":" + (bytes + [checksum]).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    /// The Intel HEX text of `segments` (`recordSize` data bytes a record, 1–255), as tools
    /// write it: an extended linear address record (04) before each 64 KiB, data records (00)
    /// that do not cross a 64 KiB boundary, a start linear address record (05) if given, and the
    /// end-of-file record; lines end with `lineEnding`. Decoding the result gives `segments` back.
    public static func text(
        segments: [Segment], startAddress: UInt32? = nil, recordSize: Int = 16, lineEnding: String = "\n"
    ) -> [UInt8] {
        let size = max(1, min(255, recordSize))
        var lines: [String] = []
        var upper: UInt32?
        for segment in segments {
            var offset = 0
            while offset < segment.bytes.count {
                let address = UInt64(segment.address) + UInt64(offset)
                let high = UInt32(truncatingIfNeeded: address >> 16)
                if high != upper {
                    lines.append(record(type: 0x04, address: 0, data: [UInt8(high >> 8), UInt8(high & 0xFF)]))
                    upper = high
                }
                let low = Int(address & 0xFFFF)
                let count = min(size, segment.bytes.count - offset, 0x10000 - low)
                lines.append(record(type: 0x00, address: UInt16(low), data: Array(segment.bytes[offset..<(offset + count)])))
                offset += count
            }
        }
        if let startAddress {
            lines.append(record(type: 0x05, address: 0, data: (0..<4).map { UInt8(truncatingIfNeeded: startAddress >> (24 - 8 * $0)) }))
        }
        lines.append(record(type: 0x01, address: 0, data: []))
        return Array(lines.map { $0 + lineEnding }.joined().utf8)
    }
}
