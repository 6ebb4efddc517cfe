import ArgumentParser
import SMP

/// Reads an image hash argument: 64 hex digits (the SHA-256 TLV shown by `image list -v`).
/// Anything else is reported like every other failure (exit 65, the error document with
/// `--json`) before anything is sent.
func parseImageHash(_ text: String, output: Output) throws -> [UInt8] {
    guard let bytes = Hex.bytes(text), bytes.count == ImageSlotState.hashLength else {
        let failure = CLIError(
            .dataError, "\(text) is not an image hash: expected \(ImageSlotState.hashLength * 2) hex digits",
            hint: "use the full hash from `smpctl image list -v` (the image's SHA-256 TLV, not the SHA-256 of the file)")
        output.report(failure)
        throw ExitCode(failure.status.rawValue)
    }
    return bytes
}
