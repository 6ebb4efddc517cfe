/// A signed MCUboot image given as Intel HEX (`zephyr.signed.hex`): the same bytes as the `.bin`,
/// and the address the image is placed at.
///
/// The file must hold exactly one contiguous range, starting with the MCUboot image magic. A file
/// with several ranges, such as Zephyr's `merged.hex` (MCUboot and the application for a flash
/// programmer), is refused with the ranges listed, even when one of them is an MCUboot image:
/// SMP cannot write the bootloader, and sending only a part of what the user gave would hide that.
public struct IntelHexImage: Sendable, Equatable {
    /// The address of the image's first byte (the slot it is placed in, e.g. `0x0000c000`).
    public var baseAddress: UInt32
    /// The image's bytes, identical to the `.bin`.
    public var bytes: [UInt8]
    /// The file's start address record, if any.
    public var startAddress: UInt32?

    /// Decodes an Intel HEX file's text; the image may be at most `maximumSize` bytes.
    public init(text: [UInt8], maximumSize: Int) throws(IntelHexError) {
        let hex = try IntelHex(text: text, maximumDataSize: maximumSize)
        guard let segment = hex.segments.first else { throw .noData }
        guard hex.segments.count == 1 else { throw .severalRanges(hex.ranges) }
        guard IntelHex.hasMagic(segment.bytes) else {
            let range = IntelHexRange(address: segment.address, count: segment.bytes.count, startsWithMCUbootMagic: false)
            throw .notAnMCUbootImage(range: range, firstBytes: Array(segment.bytes.prefix(4)))
        }
        baseAddress = segment.address
        bytes = segment.bytes
        startAddress = hex.startAddress
    }
}
