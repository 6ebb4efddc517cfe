/// An image file's content as it is uploaded: a binary image as it is, or an Intel HEX file
/// (first byte `:`) decoded strictly into the same bytes as the `.bin` (``IntelHexImage``).
/// `upgrade` (through ``FirmwarePackage``), `image upload` and `image info` read image files
/// within the one ``sizeLimit``.
public struct ImageFile: Sendable, Equatable {
    /// The largest image file, package or Intel HEX text read whole: 64 MiB.
    public static let sizeLimit = 64 << 20

    /// The image's bytes.
    public var bytes: [UInt8]
    /// The decoded Intel HEX file (with the address it places the image at); nil for a binary one.
    public var intelHex: IntelHexImage?

    /// Decodes `contents`, a whole file; `maximumSize` bounds the image an Intel HEX file decodes to.
    public init(contents: [UInt8], maximumSize: Int = sizeLimit) throws(IntelHexError) {
        if IntelHex.looksLikeIntelHex(contents) {
            let hex = try IntelHexImage(text: contents, maximumSize: maximumSize)
            bytes = hex.bytes
            intelHex = hex
        } else {
            bytes = contents
            intelHex = nil
        }
    }
}
