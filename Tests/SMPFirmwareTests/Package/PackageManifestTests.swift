import XCTest
@testable import SMPFirmware

/// `manifest.json` parsing: the shapes NCS versions write, and exact errors for bad ones.
final class PackageManifestTests: XCTestCase {
    private func parse(_ text: String) throws(FirmwarePackageError) -> PackageManifest {
        try PackageManifest(json: Array(text.utf8))
    }

    private func error(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    func testSDKManifestWithStringNumbersAndHexLoadAddress() throws {
        let manifest = try parse("""
            {"format-version": 0, "time": 1700000000, "name": "My App  v1",
             "files": [{"type": "application", "board": "nrf5340dk/nrf5340/cpuapp", "soc": "nrf5340",
                        "load_address": 65536, "image_index": "0", "slot_index_primary": "1", "slot_index_secondary": "2",
                        "version_MCUBOOT": "1.2.3+4", "size": 36, "file": "app.bin", "modtime": 1700000000}]}
            """)
        XCTAssertEqual(manifest.formatVersion, 0)
        XCTAssertEqual(manifest.time, 1_700_000_000)
        XCTAssertEqual(manifest.name, "My App  v1", "whitespace inside strings is kept")
        let file = try XCTUnwrap(manifest.files.first)
        XCTAssertEqual(file.type, "application")
        XCTAssertEqual(file.file, "app.bin")
        XCTAssertEqual(file.loadAddress, 0x10000)
        XCTAssertEqual(file.image, 0)
        XCTAssertNil(file.slot)
        XCTAssertEqual(file.mcubootVersion, "1.2.3+4")
        XCTAssertFalse(file.isDirectXIPBuild)
        XCTAssertEqual(file.size, 36)
        XCTAssertEqual(file.board, "nrf5340dk/nrf5340/cpuapp")
    }

    func testLoadAddressAsHexStringAsHexLiteralAndAsDecimalString() throws {
        let manifest = try parse("""
            {"format-version": 1, "files": [
              {"type": "application", "file": "a.bin", "load_address": "0x00010000"},
              {"type": "application", "file": "b.bin", "load_address": 0x000F8000},
              {"type": "application", "file": "c.bin", "load_address": "4096"}]}
            """)
        XCTAssertEqual(manifest.files.map(\.loadAddress), [0x10000, 0xF8000, 4096])
    }

    func testImageNumberFromImageThenImageIndexThenPartition() throws {
        let manifest = try parse("""
            {"files": [
              {"type": "application", "file": "a.bin", "image": 2, "image_index": "1", "partition": "3"},
              {"type": "application", "file": "b.bin", "image_index": "1", "partition": "3"},
              {"type": "application", "file": "c.bin", "partition": "3"},
              {"type": "application", "file": "d.bin"}]}
            """)
        XCTAssertEqual(manifest.files.map(\.image), [2, 1, 3, 0])
        XCTAssertEqual(manifest.files.map(\.partition), [3, 3, 3, nil])
    }

    func testSlotIsTakenModuloTwoAndXIPVersionMarksDirectXIP() throws {
        let manifest = try parse("""
            {"files": [
              {"type": "application", "file": "a.bin", "slot": "0", "version_MCUBOOT+XIP": "2.0.0+0"},
              {"type": "application", "file": "b.bin", "slot": 3},
              {"type": "application", "file": "c.bin", "slot": "0x2"}]}
            """)
        XCTAssertEqual(manifest.files.map(\.slot), [0, 1, 0])
        XCTAssertEqual(manifest.files[0].mcubootVersion, "2.0.0+0")
        XCTAssertTrue(manifest.files[0].isDirectXIPBuild)
    }

    func testUnknownKeysAreIgnored() throws {
        let manifest = try parse("""
            {"format-version": 7, "firmware": {"zephyr": {"revision": "abc"}}, "future": [1, 2.5e3, null, true],
             "files": [{"type": "application", "file": "a.bin", "extra": {"x": [1]}, "modtime": 5}]}
            """)
        XCTAssertEqual(manifest.formatVersion, 7)
        XCTAssertEqual(manifest.files.count, 1)
    }

    func testMissingRequiredKeysNameTheEntry() {
        XCTAssertEqual(
            error(#"{"files": [{"type": "application", "file": "a.bin"}, {"type": "application", "size": 3}]}"#),
            #"manifest.json: files[1]: missing required key "file""#)
        XCTAssertEqual(error(#"{"files": [{"file": "a.bin"}]}"#), #"manifest.json: files[0]: missing required key "type""#)
        XCTAssertEqual(error(#"{"format-version": 0}"#), #"manifest.json: (top level): missing required key "files""#)
        XCTAssertEqual(error(#"{"files": []}"#), "manifest.json: files: the list is empty")
        XCTAssertEqual(error(#"[1]"#), "manifest.json: (top level): expected an object, found an array")
    }

    func testWrongTypesNameTheKeyPath() {
        XCTAssertEqual(
            error(#"{"files": [{"type": "application", "file": "a.bin", "load_address": true}]}"#),
            "manifest.json: files[0].load_address: expected an integer, found a boolean")
        XCTAssertEqual(
            error(#"{"files": [{"type": "application", "file": "a.bin", "image_index": "zero"}]}"#),
            #"manifest.json: files[0].image_index: expected an integer, found the string "zero""#)
        XCTAssertEqual(
            error(#"{"files": [{"type": ["application"], "file": "a.bin"}]}"#),
            "manifest.json: files[0].type: expected a string, found an array")
        XCTAssertEqual(error(#"{"files": [3]}"#), "manifest.json: files[0]: expected an object, found a number")
    }

    func testSyntaxErrorsGiveLineAndColumn() {
        XCTAssertEqual(
            error("{\n  \"files\": [\n    {\"type\": \"application\",, \"file\": \"a.bin\"}]}"),
            "manifest.json is not valid JSON: line 3, column 28: expected a string key")
        XCTAssertEqual(error("{\"files\": [}"), "manifest.json is not valid JSON: line 1, column 12: unexpected character '}'")
        XCTAssertEqual(error("{\"files\": \"abc"), "manifest.json is not valid JSON: line 1, column 15: unterminated string")
        XCTAssertEqual(error("{} x"), "manifest.json is not valid JSON: line 1, column 4: unexpected text after the JSON value")
        XCTAssertEqual(error(""), "manifest.json is not valid JSON: line 1, column 1: unexpected end of text, expected a value")
    }
}
