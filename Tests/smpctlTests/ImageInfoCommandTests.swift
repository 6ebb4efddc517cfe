import Foundation
import SMPTestSupport
import XCTest

/// `smpctl image info` on real imgtool images (made by `Tests/Scripts/image/make_images.py`) and on
/// damaged or missing files.
final class ImageInfoCommandTests: XCTestCase {
    /// What the script says about one image (the fields these tests use).
    private struct Made: Decodable {
        var name: String
        var file: String
        var version: String
        var flagsValue: UInt32
        var totalSize: Int
        var fileSize: Int
        var sha256: String?
    }

    private struct Manifest: Decodable {
        var images: [Made]
    }

    private static let made = Result { () throws -> Manifest in
        try JSONDecoder().decode(Manifest.self, from: ImgtoolImageSet.make())
    }

    private func images() throws -> [Made] {
        try ExternalTool.requirePythonModules(["imgtool"])
        return try Self.made.get().images
    }

    private func image(_ name: String) throws -> Made {
        try XCTUnwrap(try images().first { $0.name == name })
    }

    /// A copy of `made` changed by `change`, in a temporary file.
    private func damagedCopy(of made: Made, _ change: (inout [UInt8]) -> Void) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: made.file)))
        change(&bytes)
        let path = made.file + ".damaged-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func testHumanOutput() async throws {
        let made = try image("ecdsa-p256")
        let run = try await SMPCtl.run(["image", "info", made.file])
        assertSuccess(run)
        let sha256 = try XCTUnwrap(made.sha256)
        for line in [
            "file:           \(made.file)", "version:        3.1.4+15", "image hash:     \(sha256)", "SHA-256 check:  valid",
            "flags:          none (0x00000000)", "header size:    512 bytes (0x200)", "protected TLVs: 12 bytes",
            "total size:     \(made.totalSize) bytes", "signature:      ECDSA-P256",
        ] {
            XCTAssertTrue(run.stdout.contains(line + "\n"), "lacks \"\(line)\"\n\(run)")
        }
        XCTAssertTrue(run.stdout.contains("\nAREA         OFFSET  TYPE              LEN  VALUE\n"), "\(run)")
        XCTAssertTrue(run.stdout.contains("protected    0x158f  SEC_CNT (0x50)      4  07000000\n"), "\(run)")
        XCTAssertTrue(run.stdout.contains("unprotected  0x159b  SHA256 (0x10)      32  \(sha256.prefix(48))…\n"), "\(run)")
    }

    func testJSONForEveryImage() async throws {
        for made in try images() {
            let run = try await SMPCtl.run(["image", "info", made.file, "--json"])
            assertSuccess(run)
            let document = try run.jsonDocument()
            XCTAssertEqual(document["imageHash"]?.string, made.sha256, made.name)
            XCTAssertEqual(document["imageHash"]?.isNull, made.sha256 == nil, made.name)
            XCTAssertEqual(document["hashValid"]?.bool, true, made.name)
            XCTAssertEqual(document["totalSize"]?.int, made.totalSize, made.name)
            XCTAssertEqual(document["fileSize"]?.int, made.fileSize, made.name)
            XCTAssertEqual(document["header"]?["flags"]?.int, Int(made.flagsValue), made.name)
            let version = try XCTUnwrap(document["version"]?["text"]?.string, made.name)
            XCTAssertTrue(version == made.version || version == made.version + "+0", "\(made.name): \(version)")
            XCTAssertEqual(document["trailer"]?.isNull, made.name != "padded-confirmed", made.name)
            XCTAssertEqual(
                document.keys,
                ["file", "fileSize", "hashValid", "hashes", "header", "hexAddress", "imageHash", "keys", "pureSignature", "schemaVersion", "signatures", "tlvs",
                 "totalSize", "trailer", "version"], made.name)
        }
    }

    func testHashMismatchPrintsTheReportAndExits65() async throws {
        let made = try image("unsigned-h200")
        let path = try damagedCopy(of: made) { $0[0x300] ^= 0x01 }
        let run = try await SMPCtl.run(["image", "info", path, "--json"])
        assertExit(run, 65)
        let document = try run.jsonDocument()
        XCTAssertEqual(document["hashValid"]?.bool, false)
        XCTAssertEqual(document["hashes"]?[0]?["status"]?.string, "mismatch")
        XCTAssertEqual(document["imageHash"]?.string, made.sha256)
        assertStderr(run, contains: "error: \(path): image hash mismatch: the SHA256 TLV at offset 0x158f holds \(made.sha256 ?? "")")
        let human = try await SMPCtl.run(["image", "info", path])
        assertExit(human, 65)
        XCTAssertTrue(human.stdout.contains("SHA-256 check:  MISMATCH: the file hashes to "), "\(human)")
    }

    func testCorruptFilesExit65WithTheExactError() async throws {
        let made = try image("unsigned-h200")
        let cases: [((inout [UInt8]) -> Void, String)] = [
            ({ $0.removeLast($0.count - 100) }, "truncated image: header and body end at offset 0x158b but the file has only 100 bytes"),
            ({ $0.removeLast($0.count - 20) }, "not an MCUboot image: 20 bytes is too short for the 32-byte image header"),
            ({ $0[0] = 0x3c }, "unsupported legacy MCUboot v1 image: magic 0x96f3b83c at offset 0"),
            ({ $0[0x1591] = 0xff; $0[0x1592] = 0xff }, "corrupt image: TLV at offset 0x158f with 65535 value bytes runs past the end of the unprotected TLV area at offset 0x15b3"),
            ({ $0[0x158b] = 0x08 }, "corrupt image: unprotected TLV area magic 0x6908 at offset 0x158b, expected 0x6907"),
        ]
        for (change, message) in cases {
            let path = try damagedCopy(of: made, change)
            let run = try await SMPCtl.run(["image", "info", path, "--json"])
            try assertErrorDocument(run, name: "data-error", code: 65, messageContains: ["\(path): \(message)"])
            let human = try await SMPCtl.run(["image", "info", path])
            assertExit(human, 65)
            XCTAssertEqual(human.stdout, "")
            XCTAssertEqual(human.stderr, "error: \(path): \(message)\n")
        }
    }

    func testMissingFileAndDirectoryExit65() async throws {
        let missing = try await SMPCtl.run(["image", "info", "/nonexistent/zephyr.signed.bin", "--json"])
        try assertErrorDocument(missing, name: "data-error", code: 65, messageContains: ["cannot open /nonexistent/zephyr.signed.bin: No such file or directory"])
        let directory = try await SMPCtl.run(["image", "info", NSTemporaryDirectory()])
        assertExit(directory, 65)
        assertStderr(directory, contains: "it is a directory")
    }

    func testHelp() async throws {
        let run = try await SMPCtl.run(["image", "info", "--help"])
        assertSuccess(run)
        XCTAssertTrue(run.stdout.contains("USAGE: smpctl image info <file> [--json]"), "\(run)")
    }
}
