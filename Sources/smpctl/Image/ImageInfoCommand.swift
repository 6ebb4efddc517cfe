import ArgumentParser
import FoundationEssentials
import SMP
import SMPFirmware

/// `smpctl image info FILE`: what an MCUboot image file holds, checked strictly (no device needed).
struct ImageInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show the header, TLVs and image hash of an MCUboot image file, and check the hash.",
        discussion: """
            Reads a signed (or unsigned) MCUboot image such as zephyr.signed.bin, or the same \
            image as Intel HEX (zephyr.signed.hex, with the address it is placed at): version, \
            flags, sizes, the SHA-256 image hash devices list and test/confirm use (not the \
            SHA-256 of the file), signatures, keys, every TLV, and a trailer if padded.
            The hash TLVs are recomputed over header, body and protected TLVs. A RAM_LOAD image \
            for Arm Cortex-M is checked against its own vector table: its reset handler must lie \
            in the RAM its load address puts it in (an image signed with the wrong --load-addr \
            does not).
            Exit codes: 65 for a file that cannot be read, is not a valid MCUboot image \
            (the message gives the byte offset, or the line of a .hex), whose hash does not match (the report \
            is printed first, with the hash status "mismatch"), or whose load address misses its code.
            """)

    @Argument(help: ArgumentHelp("The image file.", valueName: "file"), completion: .file(extensions: FirmwareFileExtensions.image))
    var file: String

    @OptionGroup var format: JSONOutputOption

    func run() async throws {
        let output = format.output
        let image: MCUbootImage
        let hex: IntelHexImage?
        do {
            (image, hex) = try loadImage()
        } catch {
            output.report(error)
            throw ExitCode(error.status.rawValue)
        }
        let report = ImageInfoReport(file: file, image: image, hexAddress: hex?.baseAddress)
        output.emit(report.json, human: report.text)
        do {
            try image.verifyHash()
            try image.verifyLoadAddress()
        } catch {
            // The report above already is the one document on standard output.
            Output.status("error: \(file): \(error)")
            throw ExitCode(ExitStatus.dataError.rawValue)
        }
    }

    /// The parsed file, read by position (a 4 GiB file costs what a small one does); a missing
    /// or unreadable file, a directory, a FIFO or a device is bad input data too (exit 65). An
    /// Intel HEX file is decoded whole first.
    private func loadImage() throws(CLIError) -> (MCUbootImage, IntelHexImage?) {
        let source = try FSLocalFile.source(file)
        do {
            if let hex = try IntelHexFile.image(in: source, path: file) { return (try MCUbootImage(bytes: hex.bytes), hex) }
            return (try MCUbootImage(source: source), nil)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(.dataError, "\(file): \(error)")
        }
    }
}
