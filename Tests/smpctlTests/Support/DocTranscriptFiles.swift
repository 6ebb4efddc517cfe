import Foundation
import SMPFirmware
import SMPSimulator

/// The files the documented commands name, made in the transcript's working folder: MCUboot
/// images (`.bin` and `.hex`) newer than the virtual device's 1.0.0, an SDK-like
/// `dfu_application.zip`, the SUIT files, and small data files for `fs put`.
enum DocTranscriptFiles {
    /// Writes every file under `folder`.
    static func write(into folder: URL) throws {
        let images: [(String, (UInt8, UInt8, UInt16))] = [
            ("app.signed.bin", (2, 0, 0)), ("app.bin", (2, 0, 1)), ("app-2.0.0.bin", (2, 0, 0)), ("app-v2.bin", (2, 0, 3)), ("app-v3.bin", (3, 0, 0)),
            ("zephyr.signed.bin", (2, 1, 0)), ("build/zephyr/zephyr.signed.bin", (2, 1, 0)),
            ("smpctl-demo/app-1.1.0.bin", (1, 1, 0)), ("smpctl-demo/app-1.2.0.bin", (1, 2, 0)),
        ]
        for (name, version) in images { try write(image(version), to: name, in: folder) }
        let hexImages: [(String, (UInt8, UInt8, UInt16))] = [
            ("app.hex", (2, 0, 2)), ("zephyr.signed.hex", (2, 2, 0)), ("smpctl-demo/app-1.2.0.hex", (1, 2, 0)),
        ]
        for (name, version) in hexImages {
            try write(IntelHex.text(segments: [IntelHex.Segment(address: 0xC000, bytes: image(version))]), to: name, in: folder)
        }
        let manifest = """
            {"format-version": 0, "files": [{"type": "application", "image_index": "0", "slot_index_primary": "1",
             "slot_index_secondary": "2", "version_MCUBOOT": "2.3.0", "file": "zephyr.signed.bin"}]}
            """
        try write(PackageTestFiles.zip([("manifest.json", Array(manifest.utf8)), ("zephyr.signed.bin", image((2, 3, 0)))]),
                  to: "dfu_application.zip", in: folder)
        for name in ["log.txt", "log.bin"] {
            try write(Array("a line of the device's log\n".utf8), to: name, in: folder)
        }
    }

    /// The SUIT files (made by Tests/Scripts/suit/make_suit_set.py, which needs cbor2): the
    /// package as `dfu_suit.zip` and `build/dfu_suit.zip`, an envelope as `root.suit`, and the cache partition.
    static func writeSUIT(into folder: URL) throws {
        let copies = [
            ("dfu_suit.zip", "dfu_suit.zip"), ("dfu_suit.zip", "build/dfu_suit.zip"), ("plain-seq4.suit", "root.suit"),
            ("dfu_cache_partition_1.bin", "dfu_cache_partition_1.bin"),
        ]
        for (source, name) in copies {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: try SUITFiles.file(source).path))
            try write(Array(bytes), to: name, in: folder)
        }
    }

    /// An unsigned MCUboot image of `version` with its SHA-256 TLV, 4 KiB of body.
    private static func image(_ version: (UInt8, UInt8, UInt16)) -> [UInt8] {
        let body = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &+ Int(version.1) &* 7 &+ Int(version.2)) }
        return SimulatedImageHeader.soundImageFile(version: (version.0, version.1, version.2, 0), body: body)
    }

    private static func write(_ bytes: [UInt8], to name: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }
}
