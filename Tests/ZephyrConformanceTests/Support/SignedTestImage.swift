import Foundation
import SMPTestSupport

/// A new application image for an MCUboot fixture, made as the fixtures README says: the
/// application bytes of the fixture's `.signed.bin` signed again by imgtool with a higher version.
enum SignedTestImage {
    /// Why no image could be made.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The RAM address the fixtures' application is linked for and MCUboot loads it to.
    static let loadAddress = "0x20240000"

    /// Writes `app-VERSION.bin` into `scratch` (once) and returns it; with `fileExtension` `hex`,
    /// `app-VERSION.hex` in Intel HEX at slot 0's address (where the manifest's `qemu_cmd` loads
    /// the signed image), as a Zephyr build's `zephyr.signed.hex`. Another `loadAddress` than
    /// the one the application is linked for makes `app-VERSION-load-ADDRESS.bin`, signed wrongly;
    /// none (nil) an image that runs from its slot, as a swap fixture's does. `slotSize`: the slot's.
    static func make(
        for fixture: ZephyrFixture, in folder: ZephyrFixtureFolder, version: String, scratch: URL, fileExtension: String = "bin",
        loadAddress: String? = SignedTestImage.loadAddress, slotSize: String = "0x80000"
    ) throws -> URL {
        let suffix = loadAddress.map { $0 == Self.loadAddress ? "" : "-load-\($0)" } ?? ""
        let output = scratch.appendingPathComponent("app-\(version)\(suffix).\(fileExtension)")
        if FileManager.default.fileExists(atPath: output.path) { return output }
        try ExternalTool.requirePythonModules(["imgtool"])
        let signedName = fixture.artifact.replacingOccurrences(of: ".merged.hex", with: ".signed.bin")
            .replacingOccurrences(of: ".hex", with: ".signed.bin")
        guard let signed = FileManager.default.contents(atPath: folder.path(of: signedName)), signed.count > 0x200 else {
            throw Failure(description: "cannot read \(folder.path(of: signedName)) (the fixture's signed image)")
        }
        // MCUboot header: magic, load address, header size (u16), protected TLV size (u16), image size (u32 at 12).
        let bytes = [UInt8](signed)
        let imageSize = Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
        let headerSize = Int(bytes[8]) | Int(bytes[9]) << 8
        guard headerSize == 0x200, 0x200 + imageSize <= bytes.count else {
            throw Failure(description: "\(signedName): unexpected MCUboot header (header size \(headerSize), image size \(imageSize))")
        }
        var hexAddress: [String] = []
        if fileExtension == "hex" {
            guard let slot0 = slot0Address(of: fixture, signedName: signedName) else {
                throw Failure(description: "\(fixture.name): no `-device loader,file=\(signedName),addr=…` in its qemu_cmd")
            }
            hexAddress = ["--hex-addr", slot0]
        }
        let app = scratch.appendingPathComponent("app.bin")
        try Data(bytes[0x200..<(0x200 + imageSize)]).write(to: app)
        let sign = try ProcessRunner.run(
            ExternalTool.python,
            [
                "-m", "imgtool.main", "sign", "--version", version, "--header-size", "0x200", "--pad-header", "--align", "4",
                "--slot-size", slotSize,
            ] + (loadAddress.map { ["--load-addr", $0] } ?? []) + hexAddress + [app.path, output.path], timeout: 60)
        guard sign.status == 0 else { throw Failure(description: "imgtool sign failed:\n\(sign.stdout)\(sign.stderr)") }
        return output
    }

    /// The `addr=` of the loader that puts `signedName` into slot 0 in the fixture's `qemu_cmd`.
    private static func slot0Address(of fixture: ZephyrFixture, signedName: String) -> String? {
        let prefix = "loader,file=\(signedName),addr="
        guard let word = fixture.qemuCmd?.split(separator: " ").first(where: { $0.hasPrefix(prefix) }) else { return nil }
        return String(word.dropFirst(prefix.count))
    }
}
