/// A signed MCUboot image given as Intel HEX (`zephyr.signed.hex`): the same bytes as the `.bin`,
/// and the address the image is placed at.
///
/// The file must hold one contiguous range starting with the MCUboot image magic. The one
/// exception is a padded image (`imgtool sign --pad`, Zephyr's `zephyr.signed.confirmed.hex`):
/// imgtool writes the image and its trailer at the end of the slot as separate ranges, leaving
/// the erased flash between them out; when the first range starts with the image magic, no other
/// range does, and the last one ends with the trailer magic, the gaps are filled with `0xff`
/// (erased flash, imgtool's default `--erased-val`), which gives the padded `.bin`.
///
/// Any other file with several ranges, such as Zephyr's `merged.hex` (MCUboot and the
/// application, for a flash programmer), is refused with the ranges listed, even when one of them
/// is an MCUboot image: SMP cannot write the bootloader, and sending only a part of what the user
/// gave would hide that.
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
        guard let segment = hex.segments.first, let last = hex.segments.last else { throw .noData }
        if hex.segments.count == 1, !IntelHex.hasMagic(segment.bytes) {
            let range = IntelHexRange(address: segment.address, count: segment.bytes.count, startsWithMCUbootMagic: false)
            throw .notAnMCUbootImage(range: range, firstBytes: Array(segment.bytes.prefix(4)))
        }
        baseAddress = segment.address
        startAddress = hex.startAddress
        guard hex.segments.count > 1 else {
            bytes = segment.bytes
            return
        }
        guard IntelHex.hasMagic(segment.bytes), !hex.segments.dropFirst().contains(where: { IntelHex.hasMagic($0.bytes) }),
              MCUbootImageTrailer.endsWithMagic(last.bytes)
        else { throw .severalRanges(hex.ranges) }
        let span = Int(UInt64(last.address) + UInt64(last.bytes.count) - UInt64(segment.address))
        guard span <= maximumSize else { throw .paddedImageTooLarge(span: span, limit: maximumSize) }
        var padded = [UInt8](repeating: 0xFF, count: span)
        for part in hex.segments {
            let offset = Int(part.address - segment.address)
            padded.replaceSubrange(offset..<(offset + part.bytes.count), with: part.bytes)
        }
        bytes = padded
    }
}
