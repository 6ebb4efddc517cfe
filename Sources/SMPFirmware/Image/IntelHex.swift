/// An Intel HEX file (`zephyr.signed.hex`) decoded strictly: the data it gives, as sorted,
/// contiguous address ranges, and its start address record if it has one.
///
/// Rules (docs/upgrade.md, "Intel HEX"):
/// - every non-blank line is one record: `:`, then hexadecimal digits (either case) for the byte
///   count, the 16-bit address, the type, the data and the checksum; the line ends with LF or
///   CR LF; blank lines are ignored; nothing else (no spaces inside or after a record);
/// - the byte count matches the line's length and the checksum matches the record's bytes;
/// - types 00 (data), 01 (end of file), 02 (extended segment address), 03 (start segment
///   address), 04 (extended linear address) and 05 (start linear address) only; 01 has no data,
///   02 and 04 two bytes, 03 and 05 four, and 02–05 the address field 0000; one start address;
/// - addresses are linear: a data record's bytes go to base + offset + i, where the base is
///   segment × 16 (type 02) or upper × 65536 (type 04), without wrapping inside 64 KiB; no byte
///   may lie past 4 GiB, and no address may be given twice;
/// - the end-of-file record is present, and only blank lines follow it;
/// - the data adds up to at most `maximumDataSize` bytes, checked record by record, before the
///   data is copied into ranges.
public struct IntelHex: Sendable, Equatable {
    /// One contiguous range of data.
    public struct Segment: Sendable, Equatable {
        /// The first address.
        public var address: UInt32
        /// The bytes from that address on.
        public var bytes: [UInt8]

        /// Creates a segment.
        public init(address: UInt32, bytes: [UInt8]) {
            self.address = address
            self.bytes = bytes
        }
    }

    /// The data, by increasing address; consecutive segments are separated by a gap.
    public var segments: [Segment]
    /// The address of a start segment (03: CS × 16 + IP) or start linear (05) address record.
    public var startAddress: UInt32?

    /// The ranges of ``segments``, without their bytes.
    public var ranges: [IntelHexRange] {
        segments.map { IntelHexRange(address: $0.address, count: $0.bytes.count, startsWithMCUbootMagic: Self.hasMagic($0.bytes)) }
    }

    /// Whether `bytes` look like an Intel HEX file rather than a binary: the first byte is `:`
    /// (neither an MCUboot image, a ZIP nor a SUIT envelope can start so).
    public static func looksLikeIntelHex(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.first == Self.colon
    }

    /// Decodes the text of an Intel HEX file.
    public init(text: [UInt8], maximumDataSize: Int) throws(IntelHexError) {
        var parser = IntelHexParser(maximumDataSize: maximumDataSize)
        try parser.parse(text)
        segments = try parser.segments()
        startAddress = parser.startAddress
    }

    static let colon = UInt8(ascii: ":")

    static func hasMagic(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: FirmwarePackage.mcubootMagic)
    }
}
