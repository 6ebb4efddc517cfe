/// What a firmware file without the MCUboot magic probably is, and what to give instead: the
/// same words for a raw binary and an Intel HEX file.
enum UnsignedImageAdvice {
    /// "is it unsigned (zephyr.bin) or the bootloader itself? give the signed image
    /// (zephyr.signed.bin, made by the build or by `imgtool sign`)", for files ending in `.ext`.
    static func text(extension ext: String) -> String {
        "is it unsigned (zephyr.\(ext)) or the bootloader itself? give the signed image (zephyr.signed.\(ext), made by the build or by `imgtool sign`)"
    }
}
