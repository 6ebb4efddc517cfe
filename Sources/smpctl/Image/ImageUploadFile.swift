import FoundationEssentials
import JSON
import SMP
import SMPFirmware

/// The file `image upload` sends: its bytes, SHA-256, and the image hash when it parses as an
/// MCUboot image.
struct ImageUploadFile: Sendable {
    let path: String
    let bytes: [UInt8]
    /// The SHA-256 of the whole file (what the device checks the upload against).
    let sha256: [UInt8]
    /// The image's SHA-256 (what `image list` shows and `image test` takes): computed from the
    /// file and equal to its TLV; with `--force`, the TLV as found, if readable.
    let imageHash: [UInt8]?
    /// The image version, if readable.
    let version: String?
    /// The address an Intel HEX file places the image at; nil for a binary file.
    let hexAddress: UInt32?

    /// What `--force` let through, printed as a warning before the upload; nil for a sound image.
    let forcedProblem: String?

    /// Reads `path` and checks it as `upgrade` does (``MCUbootUpgradeImage/checked(_:fileName:)``):
    /// a truncated file, a damaged header or TLV area, a wrong magic, a hash that differs from
    /// the file's content, or no SHA-256 TLV is refused with a data error before anything is
    /// sent. `force` sends such a file anyway (``forcedProblem`` says what is wrong with it).
    /// Only a regular file of at most ``ImageFile/sizeLimit`` bytes is read. An Intel HEX file
    /// is decoded into the image's bytes first (``ImageFile``); a malformed one is refused even
    /// with `force` (there are no bytes to send).
    init(path: String, force: Bool = false) throws(CLIError) {
        let file = try IntelHexFile.decode(FSLocalFile.contents(path, limit: ImageFile.sizeLimit), path: path)
        let bytes = file.bytes
        self.path = path
        self.hexAddress = file.intelHex?.baseAddress
        self.bytes = bytes
        self.sha256 = SHA256Hash.digest(bytes)
        do {
            let (image, hash) = try MCUbootUpgradeImage.checked(bytes, fileName: path)
            imageHash = hash
            version = "\(image.header.version)"
            forcedProblem = nil
        } catch {
            guard force else {
                throw CLIError(
                    .dataError, "\(error.description); nothing was sent",
                    hint: "MCUboot would not boot it and the device cannot tell: use the signed image the build produced "
                        + "(e.g. zephyr.signed.bin), check it with `smpctl image info FILE`, or pass --force to send it anyway")
            }
            let image = try? MCUbootImage(bytes: bytes)
            imageHash = image?.imageHash
            version = image.map { "\($0.header.version)" }
            forcedProblem = error.description
        }
    }

    /// The final JSON document.
    func json(_ result: UploadResult, serialRecovery: Bool) -> JSONValue {
        .object([
            ("event", .string("done")), ("file", .string(path)), ("size", .uint(UInt64(bytes.count))),
            ("sha256", .string(Hex.string(sha256))), ("imageHash", imageHash.map { .string(Hex.string($0)) } ?? .null),
            ("version", version.map(JSONValue.string) ?? .null), ("match", result.match.map(JSONValue.bool) ?? .null),
            ("resumedFrom", result.progress.resumedFrom.map(JSONValue.uint) ?? .null), ("window", .uint(UInt64(result.window))),
            ("chunks", .uint(UInt64(result.progress.chunksSent))), ("bytesSent", .uint(result.progress.bytesSent)),
            ("learnedAlignment", result.learnedAlignment.map { .uint(UInt64($0)) } ?? .null),
            ("seconds", .seconds(result.seconds)), ("bytesPerSecond", .rate(result.progress.bytesPerSecond)),
            ("serialRecovery", .bool(serialRecovery)),
        ])
    }

    /// The final text; `serialRecovery`: MCUboot's serial recovery took the upload.
    func text(_ result: UploadResult, serialRecovery: Bool, command: ([String]) -> String) -> String {
        let hex = hexAddress.map { " (Intel HEX at \(MCUbootHex.literal($0, width: 8)))" } ?? ""
        var lines = ["uploaded \(path)\(hex): \(bytes.count) bytes in \(TransferProgressRenderer.seconds(result.seconds)) (\(TransferProgressRenderer.rate(result.progress.bytesPerSecond)))"]
        if let resumed = result.progress.resumedFrom { lines.append("resumed from offset \(resumed)") }
        if let unit = result.learnedAlignment {
            lines.append("the device stores whole \(unit)-byte units (learned from its answers): later chunks ended on them")
        }
        if result.match == true { lines.append("the device's hash of the upload matches the file") }
        if let imageHash {
            lines.append("image hash \(Hex.string(imageHash))\(version.map { " (version \($0))" } ?? "")")
            if let forcedProblem {
                lines.append("warning: sent with --force; MCUboot will likely refuse to boot it: \(forcedProblem)")
            } else if serialRecovery {
                lines.append("MCUboot's serial recovery wrote it to the primary slot; next: \(command(["smpctl", "os", "reset"])) (MCUboot boots it, no mark needed)")
            } else {
                lines.append("next: \(command(["smpctl", "image", "test", Hex.string(imageHash)])), then \(command(["smpctl", "os", "reset"]))")
            }
        }
        return lines.joined(separator: "\n")
    }
}
