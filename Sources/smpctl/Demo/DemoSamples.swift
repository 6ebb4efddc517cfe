import FoundationEssentials
import SMPFirmware
import SMPSimulator

/// The sample firmware `smpctl demo` leaves behind for trying `upgrade` by hand against
/// `smpctl simulate`: two versions newer than the simulator's 1.0.0, each as a `.bin` (an MCUboot
/// image as imgtool writes it, unsigned, with its SHA-256 TLV) and as Intel HEX (the same bytes
/// at 0x0000C000, where Zephyr's slot 0 often starts).
enum DemoSamples {
    /// The folder the demo writes into unless told otherwise: `smpctl-demo` in the working
    /// directory, next to where the user is, with short paths to type.
    static let defaultFolder = "smpctl-demo"

    /// The versions written, oldest first.
    static let versions: [(UInt8, UInt8, UInt16)] = [(1, 1, 0), (1, 2, 0)]

    /// Where the `.hex` files place the image.
    static let hexAddress: UInt32 = 0xC000

    /// `app-1.1.0`, …: the file names without extension.
    static var baseNames: [String] { versions.map { "app-\($0.0).\($0.1).\($0.2)" } }

    /// The image of `version`: 48 KiB of body whose bytes differ per version.
    static func image(_ version: (UInt8, UInt8, UInt16)) -> [UInt8] {
        let seed = Int(version.0) << 16 | Int(version.1) << 8 | Int(version.2)
        let body = (0..<(48 * 1024)).map { UInt8(truncatingIfNeeded: ($0 &+ seed) &* 2_654_435_761 >> 13) }
        return SimulatedImageHeader.soundImageFile(version: (version.0, version.1, version.2, 0), body: body)
    }

    /// Writes every sample and a README.txt into `folder` (created if missing); returns the
    /// paths of the images written, and the files left as they were because another file was there (the
    /// user's, or other bytes), which are never overwritten. A folder that cannot be written is
    /// bad data (exit 65).
    static func write(into folder: String) throws(CLIError) -> (images: [String], kept: [String]) {
        var images: [String] = []
        var kept: [String] = []
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var files: [(path: String, bytes: [UInt8])] = []
            for (version, name) in zip(versions, baseNames) {
                let file = image(version)
                files.append((folder + "/" + name + ".bin", file))
                files.append((folder + "/" + name + ".hex", IntelHex.text(segments: [IntelHex.Segment(address: hexAddress, bytes: file)])))
            }
            images = files.map(\.path)
            files.append((folder + "/README.txt", Array(instructions(folder: folder).utf8)))
            for file in files where !(try write(file.bytes, to: file.path)) { kept.append(file.path) }
        } catch {
            throw CLIError(
                .dataError, "cannot write the demo's sample firmware into \(folder): \(error)",
                hint: "give a folder you can write with --samples DIR, or --no-samples")
        }
        return (images.filter { !kept.contains($0) }, kept)
    }

    /// Writes `bytes` to `path` unless another file is there; true when `path` holds `bytes`.
    private static func write(_ bytes: [UInt8], to path: String) throws -> Bool {
        if FileManager.default.fileExists(atPath: path) {
            return (try? Data(contentsOf: URL(fileURLWithPath: path))).map { Array($0) == bytes } ?? false
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return true
    }

    /// The commands to try the samples by hand, one per line, for `folder`.
    static func instructions(folder: String) -> String {
        let shown = ShellQuoting.quoted(folder)
        return """
            Sample firmware in \(shown)/ for trying `smpctl upgrade` by hand (written by `smpctl demo`):
            \(baseNames.map { "\($0).bin and \($0).hex" }.joined(separator: ", ")); MCUboot images (unsigned, SHA-256 TLV).
            Start the virtual device (it runs 1.0.0), then upgrade it, one version after the other:

              smpctl simulate --udp 127.0.0.1:1337 &
              smpctl -c udp:127.0.0.1:1337 image list
              smpctl -c udp:127.0.0.1:1337 upgrade \(shown)/\(baseNames[0]).bin
              smpctl -c udp:127.0.0.1:1337 upgrade \(shown)/\(baseNames[1]).hex
              kill %1

            """
    }
}
