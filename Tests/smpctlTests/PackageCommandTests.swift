import XCTest

/// `smpctl package info`: every package kind, text and JSON, and exit 65 with an exact message for bad files.
final class PackageCommandTests: XCTestCase {
    private var files: PackageTestFiles!

    override func setUpWithError() throws {
        files = try PackageTestFiles()
    }

    override func tearDown() {
        files.remove()
    }

    private let multiImageManifest = """
        {"format-version": 0, "time": 1700000000, "files": [
          {"type": "application", "board": "nrf5340dk/nrf5340/cpuapp", "soc": "nrf5340", "load_address": "0x10000",
           "image_index": "0", "version_MCUBOOT": "1.2.3+4", "size": 36, "file": "app.bin", "modtime": 1},
          {"type": "application", "board": "nrf5340dk/nrf5340/cpunet", "soc": "nrf5340", "load_address": 16777216,
           "image_index": "1", "version": "3", "size": 36, "file": "ipc_radio.bin", "modtime": 1}]}
        """

    func testSingleImageText() async throws {
        let path = try files.write("zephyr.signed.bin", PackageTestFiles.image(version: (1, 2, 3, 4)))
        let run = try await SMPCtl.run(["package", "info", path])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, """
            file: \(path)
            kind: MCUboot image

            images:
            IMAGE  TARGET       SLOT  VERSION  SIZE  FILE
                0  application     -  1.2.3+4    36  zephyr.signed.bin

            """)
    }

    func testMultiImagePackageJSON() async throws {
        let zip = PackageTestFiles.zip([
            ("manifest.json", Array(multiImageManifest.utf8)),
            ("app.bin", PackageTestFiles.image(version: (1, 2, 3, 4))), ("ipc_radio.bin", PackageTestFiles.image(version: (0, 0, 0, 3))),
        ])
        let path = try files.write("dfu_application.zip", zip)
        let run = try await SMPCtl.run(["package", "info", path, "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document.keys, ["directXIPPairs", "file", "images", "kind", "resources", "schemaVersion", "suit"])
        XCTAssertEqual(document["kind"]?.string, "mcuboot-package")
        XCTAssertEqual(document["suit"]?.isNull, true)
        let images = try XCTUnwrap(document["images"]?.array)
        XCTAssertEqual(images.map { $0["image"]?.int }, [0, 1])
        XCTAssertEqual(images.map { $0["target"]?.string }, ["application", "network-core"])
        XCTAssertEqual(images.map { $0["version"]?.string }, ["1.2.3+4", "0.0.0+3"])
        XCTAssertEqual(images.map { $0["file"]?.string }, ["app.bin", "ipc_radio.bin"])
        XCTAssertEqual(images.map { $0["size"]?.int }, [36, 36])
        XCTAssertEqual(images.map { $0["loadAddress"]?.int }, [0x10000, 0x100_0000])
        XCTAssertEqual(images.first?["slot"]?.isNull, true)
    }

    func testDirectXIPPairText() async throws {
        let manifest = """
            {"files": [{"type": "application", "image_index": "0", "slot": "0", "version_MCUBOOT+XIP": "2.0.0+0", "file": "app.bin"},
                       {"type": "application", "image_index": "0", "slot": "1", "version_MCUBOOT+XIP": "2.0.0+0",
                        "file": "mcuboot_secondary_app.bin"}]}
            """
        let image = PackageTestFiles.image(version: (2, 0, 0, 0))
        let path = try files.write(
            "dfu_application.zip",
            PackageTestFiles.zip([("manifest.json", Array(manifest.utf8)), ("app.bin", image), ("mcuboot_secondary_app.bin", image)]))
        let run = try await SMPCtl.run(["package", "info", path])
        assertSuccess(run)
        XCTAssertTrue(run.stdout.contains("""
            DirectXIP pairs:
              image 0: slot 0 app.bin, slot 1 mcuboot_secondary_app.bin
            """), run.stdout)
        XCTAssertTrue(run.stdout.contains("    0  application     1  2.0.0+0    36  mcuboot_secondary_app.bin"), run.stdout)
    }

    func testSUITEnvelopeJSON() async throws {
        let path = try files.write("root.suit", PackageTestFiles.envelope(fill: 0xAB, sequence: 12))
        let run = try await SMPCtl.run(["package", "info", path, "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document["kind"]?.string, "suit-envelope")
        let suit = try XCTUnwrap(document["suit"])
        XCTAssertEqual(suit["sequenceNumber"]?.int, 12)
        XCTAssertEqual(suit["manifestDigest"]?["algorithm"]?.int, -16)
        XCTAssertEqual(suit["manifestDigest"]?["name"]?.string, "sha-256")
        XCTAssertEqual(suit["manifestDigest"]?["digest"]?.string, String(repeating: "ab", count: 32))
        XCTAssertEqual(suit["sha256"]?.string?.count, 64)
        XCTAssertEqual(suit["components"]?.array?.count, 0)
    }

    func testUnrecognisedFileExits65() async throws {
        let path = try files.write("notes.zip", Array("hello".utf8))
        let run = try await SMPCtl.run(["package", "info", path])
        assertExit(run, 65)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, """
            error: \(path) is not an MCUboot image, ZIP package or SUIT envelope (it starts with 68 65 6c 6c 6f); \
            the name ends in .zip but the file has no ZIP signature (50 4b 03 04)

            """)
    }

    func testMaliciousArchiveExits65WithJSONError() async throws {
        let path = try files.write("evil.zip", PackageTestFiles.zip([("manifest.json", Array(multiImageManifest.utf8)), ("../evil", [1])]))
        let run = try await SMPCtl.run(["package", "info", path, "--json"])
        try assertErrorDocument(
            run, name: "data-error", code: 65, messageContains: [#"unsafe entry name in the archive: "../evil" (absolute, '..' or backslash)"#])
        XCTAssertFalse(FileManager.default.fileExists(atPath: files.directory.deletingLastPathComponent().appendingPathComponent("evil").path))
    }

    func testMissingReferencedFileAndMissingPackage() async throws {
        let path = try files.write("dfu_application.zip", PackageTestFiles.zip([
            ("manifest.json", Array(multiImageManifest.utf8)), ("app.bin", PackageTestFiles.image(version: (1, 0, 0, 0))),
        ]))
        let run = try await SMPCtl.run(["package", "info", path])
        assertExit(run, 65)
        XCTAssertEqual(run.stderr, "error: manifest.json: files[1]: \"ipc_radio.bin\" is not in the archive\n")
        let missing = try await SMPCtl.run(["package", "info", files.directory.appendingPathComponent("absent.zip").path])
        assertExit(missing, 65)
        assertStderr(missing, contains: "absent.zip: No such file or directory")
    }
}
