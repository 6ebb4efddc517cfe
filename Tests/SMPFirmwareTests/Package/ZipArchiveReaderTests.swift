import Foundation
import SMP
import SMPTestSupport
import XCTest

@testable import SMPFirmware

/// SMPFirmware's ZIP reader against archives written by Python's zipfile and Debian's zip
/// (stored, deflated, with data descriptors), and against archives cut short, damaged or using
/// what it refuses (ZIP64, encryption, other compression methods).
final class ZipArchiveReaderTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("zip-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = ExternalTool.script("package/zipfile_archives.py")
        let result = try ProcessRunner.run(ExternalTool.python, [script, folder.path], timeout: 120)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    /// The names and contents of the files every archive holds (the script's `content` folder).
    private let names = ["manifest.json", "app.bin", "empty.txt", "sub/zeros.bin"]

    private func content(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent("content").appendingPathComponent(name)))
    }

    private func archive(_ file: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(file))
    }

    /// Reads every file of `file` and checks it against the script's copy; `sub/` is a folder.
    private func assertReadsEveryFile(_ file: String, line: UInt = #line) throws {
        var archive = try PackageArchive(data: try archive(file), limits: PackageLimits())
        for name in names {
            XCTAssertTrue(archive.isFile(name), "\(file): \(name)", line: line)
            XCTAssertEqual(try archive.read(name), try content(name), "\(file): \(name)", line: line)
        }
        XCTAssertTrue(archive.contains("sub/"), file, line: line)
        XCTAssertFalse(archive.isFile("sub/"), file, line: line)
        XCTAssertNil(try archive.read("sub/"), file, line: line)
        XCTAssertNil(try archive.read("missing"), file, line: line)
    }

    func testReadsWhatPythonsZipfileWrites() throws {
        try assertReadsEveryFile("stored.zip")
        try assertReadsEveryFile("deflated.zip")
        // zipfile writing to a stream it cannot seek in puts each entry's sizes after its data.
        try assertReadsEveryFile("streamed.zip")
        XCTAssertEqual(try Self.flags(try archive("streamed.zip")).filter { $0 & 0x08 != 0 }.count, names.count + 1)
    }

    func testReadsWhatDebiansZipWrites() throws {
        try FixtureTools.require("zip", package: "zip")
        let content = folder.appendingPathComponent("content").path
        for command in ["zip -q -r ../zip.zip .", "zip -q -r - . | cat > ../zip-streamed.zip"] {
            let result = try ProcessRunner.run("/bin/sh", ["-c", "cd '\(content)' && \(command)"], timeout: 120)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        try assertReadsEveryFile("zip.zip")
        // Written to a pipe, zip puts the sizes in data descriptors too.
        try assertReadsEveryFile("zip-streamed.zip")
        XCTAssertTrue(try Self.flags(try archive("zip-streamed.zip")).contains { $0 & 0x08 != 0 })
    }

    /// Every archive cut short fails with an error (its end record is gone): no crash, no hang,
    /// nothing read; the whole archive reads back what was written.
    func testEveryTruncationIsAnError() throws {
        let files = ["manifest.json": Array("{}".utf8), "a.bin": [UInt8](repeating: 5, count: 3000)]
        let whole = [UInt8](try PackageFixtures.package(manifest: "{}", files: [("a.bin", try XCTUnwrap(files["a.bin"]))]))
        for length in 0..<whole.count {
            let cut = Data(whole[..<length])
            XCTAssertThrowsError(try Self.readAll(cut), "cut at \(length) of \(whole.count)") { error in
                XCTAssertEqual(error as? FirmwarePackageError, .corruptArchive("no end of central directory record"), "cut at \(length)")
            }
        }
        XCTAssertEqual(try Self.readAll(Data(whole)), files)
    }

    /// A damaged byte anywhere is an error, or the content read is the content written (the
    /// byte was in a field the reader does not use, such as a time stamp, or in a name): never a
    /// crash, never other content.
    func testDamageAnywhereIsAnErrorOrTheRightContent() throws {
        let entries = ["manifest.json": Array("{}".utf8), "a.bin": (0..<2000).map { UInt8($0 % 251) }]
        let whole = [UInt8](try PackageFixtures.zip(entries.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        var errors = 0
        for index in whole.indices {
            var damaged = whole
            damaged[index] ^= 0x55
            guard let read = try? Self.readAll(Data(damaged)) else {
                errors += 1
                continue
            }
            for (name, bytes) in read where entries[name] != nil { XCTAssertEqual(bytes, entries[name], "damage at \(index)") }
        }
        XCTAssertGreaterThan(errors, whole.count / 2)
    }

    func testGarbageAfterTheSignatureIsNoArchive() throws {
        var generator = SplitMix64(seed: 0x2197)
        for _ in 0..<200 {
            let garbage = [0x50, 0x4B, 0x03, 0x04] + (0..<Int.random(in: 0..<600, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            XCTAssertThrowsError(try Self.readAll(Data(garbage))) { error in
                XCTAssertEqual(error as? FirmwarePackageError, .corruptArchive("no end of central directory record"), Hex.string(garbage))
            }
        }
    }

    func testRefusesZIP64EncryptionAndOtherMethods() throws {
        let zip = [UInt8](try PackageFixtures.zip([("manifest.json", Array("{}".utf8))], compression: .none))
        let central = try XCTUnwrap(Self.offsets(of: [0x50, 0x4B, 0x01, 0x02], in: zip).first)
        let local = try XCTUnwrap(Self.offsets(of: [0x50, 0x4B, 0x03, 0x04], in: zip).first)
        let end = try XCTUnwrap(Self.offsets(of: [0x50, 0x4B, 0x05, 0x06], in: zip).last)

        var zip64 = zip
        zip64.replaceSubrange(central + 20..<central + 24, with: [0xFF, 0xFF, 0xFF, 0xFF])
        XCTAssertEqual(Self.error(zip64), "corrupt ZIP archive: ZIP64 archives are not supported")
        var zip64Count = zip
        zip64Count.replaceSubrange(end + 8..<end + 12, with: [0xFF, 0xFF, 0xFF, 0xFF])
        XCTAssertEqual(Self.error(zip64Count), "corrupt ZIP archive: ZIP64 archives are not supported")

        var encrypted = zip
        encrypted[central + 8] |= 0x01
        XCTAssertEqual(Self.error(encrypted), #"corrupt ZIP archive: "manifest.json" is encrypted, which is not supported"#)

        var method = zip
        method[central + 10] = 12
        method[local + 8] = 12
        XCTAssertEqual(Self.error(method), #"corrupt ZIP archive: "manifest.json": unsupported compression method 12"#)

        var outside = zip
        outside.replaceSubrange(central + 42..<central + 46, with: [0x00, 0x00, 0x00, 0x10])
        XCTAssertEqual(Self.error(outside), #"corrupt ZIP archive: "manifest.json": its local header offset 268435456 is outside the archive"#)

        var count = zip
        count[end + 10] = 2
        count[end + 8] = 2
        XCTAssertEqual(Self.error(count), "corrupt ZIP archive: the central directory holds 1 entries instead of the declared 2")
    }

    func testStoredSizeAndDeflateStreamMustAgreeWithTheHeaders() throws {
        let zip = [UInt8](try PackageFixtures.zip([("manifest.json", Array(#"{"files": []}"#.utf8))]))
        let central = try XCTUnwrap(Self.offsets(of: [0x50, 0x4B, 0x01, 0x02], in: zip).first)
        var short = zip
        // One byte of deflate data fewer than there is: the stream does not end.
        let size = zip[central + 20..<central + 24].reversed().reduce(0) { $0 << 8 | UInt32($1) } - 1
        short.replaceSubrange(central + 20..<central + 24, with: (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) })
        XCTAssertEqual(Self.error(short), #"corrupt ZIP archive: "manifest.json": the deflate data ends early"#)
    }

    /// Reads every regular file of the archive in `data`.
    private static func readAll(_ data: Data) throws -> [String: [UInt8]] {
        var archive = try PackageArchive(data: data, limits: PackageLimits())
        let reader = try ZipArchiveReader(bytes: [UInt8](data), maximumEntryCount: 1024)
        var contents: [String: [UInt8]] = [:]
        for entry in reader.entries { contents[entry.name] = try archive.read(entry.name) }
        return contents
    }

    /// The error opening `bytes` as a package, as a user reads it.
    private static func error(_ bytes: [UInt8]) -> String? {
        PackageFixtures.error(opening: Data(bytes))?.description
    }

    /// The general-purpose flags of every central-directory entry.
    private static func flags(_ data: Data) throws -> [UInt16] {
        let bytes = [UInt8](data)
        return offsets(of: [0x50, 0x4B, 0x01, 0x02], in: bytes).map { UInt16(bytes[$0 + 8]) | UInt16(bytes[$0 + 9]) << 8 }
    }

    private static func offsets(of signature: [UInt8], in bytes: [UInt8]) -> [Int] {
        guard bytes.count >= signature.count else { return [] }
        return (0...bytes.count - signature.count).filter { bytes[$0..<$0 + signature.count].elementsEqual(signature) }
    }
}
