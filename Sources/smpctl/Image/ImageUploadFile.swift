import Foundation
import SMP
import SMPFirmware

/// The file `image upload` sends: its bytes, SHA-256, and the image hash when it parses as an
/// MCUboot image.
struct ImageUploadFile: Sendable {
    let path: String
    let bytes: [UInt8]
    /// The SHA-256 of the whole file (what the device checks the upload against).
    let sha256: [UInt8]
    /// The image's SHA-256 TLV (what `image list` shows and `image test` takes), if readable.
    let imageHash: [UInt8]?
    /// The image version, if readable.
    let version: String?

    /// The MCUboot header magic, little-endian at offset 0.
    static let magic: [UInt8] = [0x3D, 0xB8, 0xF3, 0x96]

    /// Reads `path`; fails with a data error when it cannot be read, is not a regular file, is
    /// larger than any image (``FSLocalFile/imageSizeLimit``) or is not an MCUboot image.
    init(path: String) throws(CLIError) {
        let bytes = try FSLocalFile.contents(path, limit: FSLocalFile.imageSizeLimit)
        guard bytes.count >= 32, Array(bytes.prefix(4)) == Self.magic else {
            throw CLIError(
                .dataError, "\(path): not an MCUboot image (the header magic 0x96f3b83d is missing)",
                hint: "upload a signed image such as zephyr.signed.bin; the device refuses anything else")
        }
        self.path = path
        self.bytes = bytes
        self.sha256 = SHA256Hash.digest(bytes)
        let image = try? MCUbootImage(bytes: bytes)
        self.imageHash = image?.imageHash
        self.version = image.map { "\($0.header.version)" }
    }

    /// What `image upload` announces before it starts.
    var announcement: String {
        let hash = imageHash.map { ", image hash \(Hex.string($0).prefix(16))…" } ?? ""
        return "uploading \(path) (\(bytes.count) bytes\(hash))"
    }

    /// The final JSON document.
    func json(_ result: UploadResult) -> JSONValue {
        .object([
            ("event", .string("done")), ("file", .string(path)), ("size", .uint(UInt64(bytes.count))),
            ("sha256", .string(Hex.string(sha256))), ("imageHash", imageHash.map { .string(Hex.string($0)) } ?? .null),
            ("version", version.map(JSONValue.string) ?? .null), ("match", result.match.map(JSONValue.bool) ?? .null),
            ("resumedFrom", result.progress.resumedFrom.map(JSONValue.uint) ?? .null), ("window", .uint(UInt64(result.window))),
            ("chunks", .uint(UInt64(result.progress.chunksSent))), ("bytesSent", .uint(result.progress.bytesSent)),
            ("learnedAlignment", result.learnedAlignment.map { .uint(UInt64($0)) } ?? .null),
            ("seconds", .double(result.seconds)), ("bytesPerSecond", .double(result.progress.bytesPerSecond)),
        ])
    }

    /// The final text.
    func text(_ result: UploadResult) -> String {
        var lines = ["uploaded \(path): \(bytes.count) bytes in \(TransferProgressRenderer.seconds(result.seconds)) (\(TransferProgressRenderer.rate(result.progress.bytesPerSecond)))"]
        if let resumed = result.progress.resumedFrom { lines.append("resumed from offset \(resumed)") }
        if let unit = result.learnedAlignment {
            lines.append("the device stores whole \(unit)-byte units (learned from its answers): later chunks ended on them")
        }
        if result.match == true { lines.append("the device's hash of the upload matches the file") }
        if let imageHash {
            lines.append("image hash \(Hex.string(imageHash))\(version.map { " (version \($0))" } ?? "")")
            lines.append("next: smpctl image test \(Hex.string(imageHash)), then smpctl os reset")
        }
        return lines.joined(separator: "\n")
    }
}
