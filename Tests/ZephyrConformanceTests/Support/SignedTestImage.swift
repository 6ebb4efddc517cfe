import Foundation
import SMPTestSupport

/// A new application image for an MCUboot fixture, made as the fixtures README says: the
/// application bytes of the fixture's `.signed.bin` signed again by imgtool with a higher version.
enum SignedTestImage {
    /// Why no image could be made.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes `app-VERSION.bin` into `scratch` (once) and returns it.
    static func make(for fixture: ZephyrFixture, in folder: ZephyrFixtureFolder, version: String, scratch: URL) throws -> URL {
        let output = scratch.appendingPathComponent("app-\(version).bin")
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
        let app = scratch.appendingPathComponent("app.bin")
        try Data(bytes[0x200..<(0x200 + imageSize)]).write(to: app)
        let sign = try ProcessRunner.run(
            ExternalTool.python,
            [
                "-m", "imgtool.main", "sign", "--version", version, "--header-size", "0x200", "--pad-header", "--align", "4",
                "--slot-size", "0x80000", "--load-addr", "0x20240000", app.path, output.path,
            ], timeout: 60)
        guard sign.status == 0 else { throw Failure(description: "imgtool sign failed:\n\(sign.stdout)\(sign.stderr)") }
        return output
    }
}
