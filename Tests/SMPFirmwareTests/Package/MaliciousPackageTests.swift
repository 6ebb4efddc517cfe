import Foundation
import XCTest
@testable import SMPFirmware

/// Hostile or broken archives: each fails with an exact error, never a crash or a file written.
final class MaliciousPackageTests: XCTestCase {
    private let app = PackageFixtures.image()
    private let appManifest = #"{"files": [{"type": "application", "file": "app.bin", "image_index": "0"}]}"#

    private func error(_ entries: [(String, [UInt8])], limits: PackageLimits = PackageLimits()) throws -> String? {
        PackageFixtures.error(opening: try PackageFixtures.zip(entries), limits: limits)?.description
    }

    private func error(manifest: String, files: [(String, [UInt8])]) throws -> String? {
        PackageFixtures.error(opening: try PackageFixtures.package(manifest: manifest, files: files))?.description
    }

    func testParentDirectoryNamesAreRejected() throws {
        XCTAssertEqual(
            try error([("manifest.json", Array(appManifest.utf8)), ("app.bin", app), ("../evil", [1])]),
            #"unsafe entry name in the archive: "../evil" (absolute, '..' or backslash)"#)
        XCTAssertEqual(
            try error([("a/../../evil", [1])]),
            #"unsafe entry name in the archive: "a/../../evil" (absolute, '..' or backslash)"#)
    }

    func testAbsoluteAndBackslashNamesAreRejected() throws {
        XCTAssertEqual(try error([("/etc/passwd", [1])]), #"unsafe entry name in the archive: "/etc/passwd" (absolute, '..' or backslash)"#)
        XCTAssertEqual(try error([("..\\evil", [1])]), #"unsafe entry name in the archive: "..\evil" (absolute, '..' or backslash)"#)
        XCTAssertEqual(try error([("C:/evil", [1])]), #"unsafe entry name in the archive: "C:/evil" (absolute, '..' or backslash)"#)
    }

    func testUnsafeNameInTheManifestIsRejected() throws {
        XCTAssertEqual(
            try error(manifest: #"{"files": [{"type": "application", "file": "../app.bin"}]}"#, files: [("app.bin", app)]),
            #"manifest.json: files[0].file: unsafe file name "../app.bin""#)
    }

    func testManifestNamingAMissingFile() throws {
        XCTAssertEqual(try error(manifest: appManifest, files: []), #"manifest.json: files[0]: "app.bin" is not in the archive"#)
    }

    func testFileNamesMustMatchExactlyNotAsPrefixOrSuffix() throws {
        XCTAssertEqual(
            try error(manifest: appManifest, files: [("my_app.bin", app), ("app.bin.bak", app), ("dir/app.bin", app), ("APP.BIN", app)]),
            #"manifest.json: files[0]: "app.bin" is not in the archive"#)
        let package = try PackageFixtures.open(
            try PackageFixtures.package(manifest: appManifest, files: [("my_app.bin", [0]), ("app.bin", app), ("app.bin.bak", [1])]))
        XCTAssertEqual(package.images.first?.bytes, app)
    }

    func testMissingManifestAndDirectoryInsteadOfFile() throws {
        XCTAssertEqual(try error([("app.bin", app)]), "the archive has no manifest.json")
        XCTAssertEqual(
            try error([("manifest.json", Array(#"{"files": [{"type": "application", "file": "d/"}]}"#.utf8)), ("d/", [])]),
            #"manifest.json: files[0]: "d/" is not a regular file in the archive"#)
    }

    func testDuplicateEntriesAndDuplicateImages() throws {
        XCTAssertEqual(try error([("app.bin", app), ("app.bin", app)]), #"the archive holds "app.bin" more than once"#)
        let manifest = #"{"files": [{"type": "application", "file": "a.bin"}, {"type": "application", "file": "b.bin", "image": 0}]}"#
        XCTAssertEqual(
            try error(manifest: manifest, files: [("a.bin", app), ("b.bin", app)]),
            "manifest.json: files[1]: image 0 is already given by files[0]")
    }

    func testFileThatIsNotAnMCUbootImage() throws {
        XCTAssertEqual(
            try error(manifest: appManifest, files: [("app.bin", [0, 1, 2, 3])]),
            #"manifest.json: files[0]: "app.bin" is not an MCUboot image (no magic 3d b8 f3 96 at offset 0)"#)
    }

    func testHugeDeclaredSizeFailsBeforeReading() throws {
        let zip = try PackageFixtures.package(manifest: appManifest, files: [("app.bin", app)])
        let bomb = PackageFixtures.declaringUncompressedSize(0x7FFF_FFFF, in: zip)
        XCTAssertEqual(
            PackageFixtures.error(opening: bomb)?.description,
            #"archive entry "manifest.json" is 2147483647 bytes uncompressed, more than the limit of 67108864"#)
    }

    func testEntryInflatingPastItsDeclaredSizeIsStopped() throws {
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        let zip = try PackageFixtures.zip([("manifest.json", zeros)])
        let bomb = PackageFixtures.declaringUncompressedSize(100, in: zip)
        XCTAssertEqual(
            PackageFixtures.error(opening: bomb)?.description,
            #"archive entry "manifest.json" decompresses to more than its declared 100 bytes"#)
    }

    func testTotalAndEntryCountLimits() throws {
        let limits = PackageLimits(maximumTotalSize: 200)
        let manifest = #"{"files": [{"type": "application", "file": "a.bin"}, {"type": "application", "file": "b.bin", "image": 1}]}"#
        let big = PackageFixtures.image(body: [UInt8](repeating: 7, count: 64))
        XCTAssertEqual(
            PackageFixtures.error(opening: try PackageFixtures.package(manifest: manifest, files: [("a.bin", big), ("b.bin", big)]), limits: limits)?
                .description,
            "the archive's files add up to more than 200 bytes uncompressed")
        XCTAssertEqual(
            try error([("a", [1]), ("b", [2]), ("c", [3])], limits: PackageLimits(maximumEntryCount: 2)),
            "the archive has more than 2 entries")
    }

    func testCorruptArchives() throws {
        XCTAssertEqual(
            PackageFixtures.error(opening: Data([0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0xAA, count: 60)))?.description,
            "corrupt ZIP archive: no end of central directory record")
        let stored = try PackageFixtures.zip([("manifest.json", Array(appManifest.utf8))], compression: .none)
        // The manifest's own bytes (a "{" may also turn up in the header's DOS time stamp).
        let manifest = try XCTUnwrap(stored.range(of: Data(appManifest.utf8)), "the stored manifest is in the archive")
        let crcError = PackageFixtures.error(opening: stored.withByteFlipped(at: manifest.lowerBound + 2))
        XCTAssertEqual(crcError?.description, #"corrupt ZIP archive: "manifest.json": CRC-32 mismatch"#)
    }
}

extension Data {
    /// A copy with the byte at `index` inverted.
    fileprivate func withByteFlipped(at index: Int) -> Data {
        var copy = self
        copy[index] ^= 0xFF
        return copy
    }
}
