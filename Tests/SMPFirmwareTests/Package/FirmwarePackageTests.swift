import Foundation
import XCTest
@testable import SMPFirmware

/// Opening packages: kind detection and the images of SDK-like `dfu_application.zip` files.
final class FirmwarePackageTests: XCTestCase {
    func testSingleApplicationPackage() throws {
        let app = PackageFixtures.image(version: (1, 2, 3, 4))
        let manifest = """
            {"format-version": 0, "time": 1700000000, "files": [{"type": "application", "board": "nrf52840dk/nrf52840",
             "soc": "nrf52840", "load_address": "0x0000c000", "image_index": "0", "slot_index_primary": "1",
             "slot_index_secondary": "2", "version_MCUBOOT": "1.2.3+4", "size": \(app.count), "file": "app.bin", "modtime": 1}]}
            """
        let package = try PackageFixtures.open(PackageFixtures.package(manifest: manifest, files: [("app.bin", app)]))
        XCTAssertEqual(package.kind, .mcubootPackage)
        XCTAssertEqual(package.images, [
            PackageImage(image: 0, target: .application, fileName: "app.bin", mcubootVersion: "1.2.3+4", loadAddress: 0xC000,
                         board: "nrf52840dk/nrf52840", bytes: app),
        ])
        XCTAssertEqual(package.directXIPPairs, [])
        XCTAssertNil(package.suitEnvelope)
        XCTAssertEqual(package.manifest?.formatVersion, 0)
    }

    func testApplicationAndNetworkCorePackage() throws {
        let app = PackageFixtures.image(version: (2, 0, 0, 0))
        let net = PackageFixtures.image(version: (0, 0, 0, 7), body: [9, 9])
        let manifest = """
            {"format-version": 0, "time": 1, "name": "multi", "files": [
              {"type": "application", "board": "nrf5340dk/nrf5340/cpuapp", "soc": "nrf5340", "load_address": 65536,
               "image_index": "0", "version_MCUBOOT": "2.0.0+0", "size": \(app.count), "file": "app.bin", "modtime": 1},
              {"type": "application", "board": "nrf5340dk/nrf5340/cpunet", "soc": "nrf5340", "load_address": 16777216,
               "image_index": "1", "version": "3", "size": \(net.count), "file": "ipc_radio.bin", "modtime": 1}]}
            """
        let data = try PackageFixtures.package(manifest: manifest, files: [("app.bin", app), ("ipc_radio.bin", net)])
        let package = try PackageFixtures.open(data)
        XCTAssertEqual(package.kind, .mcubootPackage)
        XCTAssertEqual(package.images.map(\.image), [0, 1])
        XCTAssertEqual(package.images.map(\.target), [.application, .networkCore])
        XCTAssertEqual(package.images.map(\.fileName), ["app.bin", "ipc_radio.bin"])
        XCTAssertEqual(package.images.map(\.bytes), [app, net])
        XCTAssertEqual(package.images.map(\.mcubootVersion), ["2.0.0+0", "0.0.0+7"], "the header gives the version the manifest lacks")
        XCTAssertEqual(package.images.map(\.loadAddress), [0x10000, 0x100_0000])
    }

    func testDirectXIPPackageGroupsBothSlotsAsAPair() throws {
        let slot0 = PackageFixtures.image(body: [0])
        let slot1 = PackageFixtures.image(body: [1])
        let manifest = """
            {"format-version": 0, "files": [
              {"type": "application", "board": "b", "soc": "s", "load_address": "0x10000", "image_index": "0", "slot": "0",
               "version_MCUBOOT+XIP": "1.0.0+0", "size": 33, "file": "app.bin", "modtime": 1},
              {"type": "application", "board": "b", "soc": "s", "load_address": "0x80000", "image_index": "0", "slot": "1",
               "version_MCUBOOT+XIP": "1.0.0+0", "size": 33, "file": "mcuboot_secondary_app.bin", "modtime": 1}]}
            """
        let data = try PackageFixtures.package(manifest: manifest, files: [("mcuboot_secondary_app.bin", slot1), ("app.bin", slot0)])
        let package = try PackageFixtures.open(data)
        XCTAssertEqual(package.images.map(\.slot), [0, 1])
        let pair = try XCTUnwrap(package.directXIPPairs.first)
        XCTAssertEqual(package.directXIPPairs.count, 1)
        XCTAssertEqual(pair.image, 0)
        XCTAssertEqual(pair.slot0.fileName, "app.bin")
        XCTAssertEqual(pair.slot0.bytes, slot0)
        XCTAssertEqual(pair.slot1.fileName, "mcuboot_secondary_app.bin")
        XCTAssertEqual(pair.slot1.loadAddress, 0x80000)
    }

    func testMCUbootUpdateAndStoredEntries() throws {
        let boot = PackageFixtures.image()
        let manifest = #"{"files": [{"type": "mcuboot", "file": "sub/signed_by_mcuboot_and_b0_s0_image.bin", "image": 0}]}"#
        let data = try PackageFixtures.zip(
            [("manifest.json", Array(manifest.utf8)), ("sub/", []), ("sub/signed_by_mcuboot_and_b0_s0_image.bin", boot)], compression: .none)
        let package = try PackageFixtures.open(data)
        XCTAssertEqual(package.images.map(\.target), [.mcuboot])
        XCTAssertEqual(package.images.first?.bytes, boot)
    }

    func testSingleMCUbootImageIsDetectedByContent() throws {
        let image = PackageFixtures.image(version: (3, 1, 0, 0))
        let package = try PackageFixtures.open(Data(image), name: "/tmp/firmware.zip")
        XCTAssertEqual(package.kind, .mcubootImage)
        XCTAssertEqual(package.images, [PackageImage(image: 0, target: .application, fileName: "firmware.zip", mcubootVersion: "3.1.0+0", bytes: image)])
    }

    func testUnknownContentNamesTheBytesAndTheExtensionHint() {
        XCTAssertEqual(
            PackageFixtures.error(opening: Data([0x7F, 0x45, 0x4C, 0x46, 1, 2, 3, 4, 5]), name: "fw.bin")?.description,
            "fw.bin is not an MCUboot image, ZIP package or SUIT envelope (it starts with 7f 45 4c 46 01 02 03 04); "
                + "the name ends in .bin but the file has no MCUboot magic (3d b8 f3 96): is it unsigned (zephyr.bin) or the bootloader itself? "
                + "give the signed image (zephyr.signed.bin, made by the build or by `imgtool sign`)")
        XCTAssertEqual(
            PackageFixtures.error(opening: Data(), name: "empty")?.description,
            "empty is not an MCUboot image, ZIP package or SUIT envelope (it is empty)")
        XCTAssertEqual(
            PackageFixtures.error(opening: Data("hello".utf8), name: "a.zip")?.description,
            "a.zip is not an MCUboot image, ZIP package or SUIT envelope (it starts with 68 65 6c 6c 6f); "
                + "the name ends in .zip but the file has no ZIP signature (50 4b 03 04)")
    }

    func testOpeningFromAPath() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-package-\(UUID().uuidString).bin")
        try Data(PackageFixtures.image()).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let package = try FirmwarePackage(contentsOf: url.path)
        XCTAssertEqual(package.kind, .mcubootImage)
        XCTAssertThrowsError(try FirmwarePackage(contentsOf: url.path, limits: PackageLimits(maximumFileSize: 10))) { error in
            XCTAssertEqual((error as? FirmwarePackageError)?.description, "\(url.path) is larger than 10 bytes")
        }
        XCTAssertThrowsError(try FirmwarePackage(contentsOf: "/nonexistent/fw.zip")) { error in
            XCTAssertEqual((error as? FirmwarePackageError)?.description, "cannot read /nonexistent/fw.zip: No such file or directory")
        }
    }
}
