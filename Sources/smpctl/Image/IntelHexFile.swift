import SMP
import SMPFirmware

/// Image files given as Intel HEX (`zephyr.signed.hex`) for `image info` and `image upload`: a
/// file whose first byte is `:` is decoded (strictly, ``IntelHexImage``) into the same bytes as
/// the `.bin`; any other file is taken as a binary image.
enum IntelHexFile {
    /// The image in `source` when it is Intel HEX, nil when it is not; a file larger than
    /// ``FSLocalFile/imageSizeLimit`` is refused before it is read, and a malformed one is a data
    /// error that names the line.
    static func image(in source: FileUploadSource, path: String) throws(CLIError) -> IntelHexImage? {
        guard source.count > 0 else { return nil }
        let text: [UInt8]
        do {
            guard IntelHex.looksLikeIntelHex(try source.read(offset: 0, length: 1)) else { return nil }
            guard source.count <= FSLocalFile.imageSizeLimit else {
                throw CLIError(
                    .dataError, "\(path) has \(source.count) bytes, more than the \(FSLocalFile.imageSizeLimit) bytes smpctl reads whole",
                    hint: "check the file name")
            }
            text = try source.read(offset: 0, length: source.count)
        } catch {
            throw CLIError(error)
        }
        return try image(text: text, path: path)
    }

    /// The image in `bytes` (a whole file) when they are Intel HEX, nil when they are not.
    static func image(in bytes: [UInt8], path: String) throws(CLIError) -> IntelHexImage? {
        guard IntelHex.looksLikeIntelHex(bytes) else { return nil }
        return try image(text: bytes, path: path)
    }

    private static func image(text: [UInt8], path: String) throws(CLIError) -> IntelHexImage {
        do {
            return try IntelHexImage(text: text, maximumSize: FSLocalFile.imageSizeLimit)
        } catch {
            throw CLIError(.dataError, "\(path): \(error)")
        }
    }
}
