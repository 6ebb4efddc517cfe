import SMP
import SMPFirmware

/// Image files given as Intel HEX (`zephyr.signed.hex`) for `image info` and `image upload`: a
/// file whose first byte is `:` is decoded (strictly, ``ImageFile``) into the same bytes as the
/// `.bin`; any other file is taken as a binary image. A malformed one is a data error that names
/// the line.
enum IntelHexFile {
    /// The image in `source` when it is Intel HEX, nil when it is not; a file larger than
    /// ``ImageFile/sizeLimit`` is refused before it is read.
    static func image(in source: FileUploadSource, path: String) throws(CLIError) -> IntelHexImage? {
        guard source.count > 0 else { return nil }
        let text: [UInt8]
        do {
            guard IntelHex.looksLikeIntelHex(try source.read(offset: 0, length: 1)) else { return nil }
            guard source.count <= ImageFile.sizeLimit else {
                throw CLIError(
                    .dataError, "\(path) has \(source.count) bytes, more than the \(ImageFile.sizeLimit) bytes smpctl reads whole",
                    hint: "check the file name")
            }
            text = try source.read(offset: 0, length: source.count)
        } catch {
            throw CLIError(error)
        }
        return try decode(text, path: path).intelHex
    }

    /// A whole file's content as the image it holds (``ImageFile``).
    static func decode(_ contents: [UInt8], path: String) throws(CLIError) -> ImageFile {
        do {
            return try ImageFile(contents: contents)
        } catch {
            throw CLIError(.dataError, "\(path): \(error)")
        }
    }
}
