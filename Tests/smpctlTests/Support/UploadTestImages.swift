import Foundation
import SMPSimulator
import SMPTestSupport
import XCTest

/// Real MCUboot images made by imgtool (`Tests/Scripts/image/make_images.py`, once per test run)
/// for the `image upload` tests.
enum UploadTestImages {
    /// One image the script made.
    struct Image: Decodable {
        var name: String
        /// Its path.
        var file: String
        /// Its version as given to imgtool, e.g. `3.1.4+15`.
        var version: String
        /// The file's size in bytes.
        var fileSize: Int
        /// The image hash (SHA-256 TLV) as hex, for SHA-256 images.
        var sha256: String?
        /// The same image as Intel HEX, for the deterministic cases (make_images.py's HEX_ADDRESSES).
        var hexFile: String?
        /// The address the `.hex` places the image at.
        var hexAddress: UInt32?

        /// The file's bytes.
        func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))) }
    }

    private struct Manifest: Decodable {
        var images: [Image]
    }

    private static let made = Result { () throws -> [Image] in
        try JSONDecoder().decode(Manifest.self, from: ImgtoolImageSet.make()).images
    }

    /// A signed image of about 5.6 KB (ECDSA P-256, version 3.1.4+15).
    static func signed(file: StaticString = #filePath, line: UInt = #line) throws -> Image {
        try named("ecdsa-p256", file: file, line: line)
    }

    /// An image padded to its 256 KiB slot with the trailer's magic (`imgtool sign --pad --confirm`).
    static func padded(file: StaticString = #filePath, line: UInt = #line) throws -> Image {
        try named("padded-confirmed", file: file, line: line)
    }

    /// An image made both as `.bin` and as Intel HEX (Ed25519, placed at 0xfff0, across 64 KiB).
    static func withHex(file: StaticString = #filePath, line: UInt = #line) throws -> Image {
        try named("ed25519-pubkey", file: file, line: line)
    }

    private static func named(_ name: String, file: StaticString, line: UInt) throws -> Image {
        try ExternalTool.requirePythonModules(["imgtool"])
        return try XCTUnwrap(try made.get().first { $0.name == name }, "make_images.py made no \(name)", file: file, line: line)
    }
}

/// The JSON lines of an `image upload --json` run: progress events, then a `done` document or an
/// `{"error": …}` document.
struct UploadOutput {
    /// Every line, parsed.
    var lines: [JSONNode]

    /// Parses standard output, failing the test on a line that is not a JSON object.
    init(_ run: SMPCtlRun, file: StaticString = #filePath, line: UInt = #line) throws {
        try self.init(stdout: run.stdout, context: "\(run)", file: file, line: line)
    }

    /// Parses `stdout`; `context` is shown when a line is not a JSON object.
    init(stdout: String, context: String, file: StaticString = #filePath, line: UInt = #line) throws {
        lines = try stdout.split(separator: "\n").map { text in
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8))
            return try XCTUnwrap(object as? [String: Any], "not a JSON object: \(text)\n\(context)", file: file, line: line)
        }.map(JSONNode.init)
    }

    /// The `progress` events.
    var progress: [JSONNode] { lines.filter { $0["event"]?.string == "progress" } }

    /// The final `done` document, if the last line is one.
    var done: JSONNode? { lines.last.flatMap { $0["event"]?.string == "done" ? $0 : nil } }

    /// The `error` object of the last line, if it is an error document.
    var error: JSONNode? { lines.last?["error"] }
}

/// Asserts that an `image upload --json` run succeeded with `match: true` and that the device's
/// secondary slot of image 0 now holds exactly `bytes`; returns the `done` document.
@discardableResult
func assertUploaded(
    _ run: SMPCtlRun, _ bytes: [UInt8], to device: VirtualDevice,
    file: StaticString = #filePath, line: UInt = #line
) async throws -> JSONNode {
    assertExit(run, 0, file: file, line: line)
    let done = try XCTUnwrap(try UploadOutput(run, file: file, line: line).done, "no done document\n\(run)", file: file, line: line)
    XCTAssertEqual(done["match"]?.bool, true, "\(run)", file: file, line: line)
    XCTAssertEqual(done["size"]?.int, bytes.count, "\(run)", file: file, line: line)
    let slot = await device.slotContents(1)
    XCTAssertEqual(slot.count, bytes.count, "the slot's length", file: file, line: line)
    XCTAssertTrue(slot == bytes, "the slot's content differs from the file", file: file, line: line)
    return done
}
