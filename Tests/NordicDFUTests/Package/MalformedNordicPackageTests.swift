import Crypto
import Foundation
import NordicDFU
import SMPFirmware
import XCTest

/// Nordic DFU packages built in Swift, each broken in one way, refused with the specific error;
/// and the checks that must pass on a good one (recognition, bare applications, keys).
final class MalformedNordicPackageTests: XCTestCase {
    private typealias F = NordicDFUFixtures
    private let firmware = F.firmware(300)

    private func goodPacket(signedWith key: P256.Signing.PrivateKey? = nil) throws -> [UInt8] {
        try F.packet(F.initCommand(firmware), signedWith: key)
    }

    func testAGoodPackageOpens() throws {
        let key = P256.Signing.PrivateKey()
        let packet = try goodPacket(signedWith: key)
        let data = try F.application(firmware, initPacket: packet)
        XCTAssertTrue(NordicDFUPackage.isNordicDFUPackage(data))
        let package = try NordicDFUPackage(data: data, name: "good.zip")
        XCTAssertEqual(package.kind, .secure)
        XCTAssertEqual(package.images.map(\.type), [.application])
        XCTAssertEqual(package.images.first?.firmware, firmware)
        XCTAssertEqual(package.images.first?.initPacket.bytes, packet)
        XCTAssertEqual(package.images.first?.signatureCheck(with: DFUPublicKey(key.publicKey)), .verified)
    }

    func testNotAnArchive() {
        XCTAssertEqual(F.error(opening: Data([0x3D, 0xB8, 0xF3, 0x96])), .notAnArchive(path: "test.zip", firstBytes: [0x3D, 0xB8, 0xF3, 0x96]))
    }

    func testNCSPackageIsNotRecognised() throws {
        let ncs = try F.zip([("manifest.json", Array(#"{"files": [{"type": "application", "file": "app.bin"}]}"#.utf8)), ("app.bin", firmware)])
        XCTAssertFalse(NordicDFUPackage.isNordicDFUPackage(ncs))
        XCTAssertEqual(
            F.error(opening: ncs),
            .manifestInvalid(path: "(top level)", problem: "missing required key \"manifest\" (this is not an nRF5 SDK DFU package)"))
        XCTAssertFalse(NordicDFUPackage.isNordicDFUPackage(Data("PK\u{3}\u{4} not really".utf8)))
    }

    func testMissingManifestAndEntries() throws {
        XCTAssertEqual(F.error(opening: try F.zip([("app.bin", firmware)])), .archive(.missingManifest))
        let packet = try goodPacket()
        XCTAssertEqual(
            F.error(opening: try F.application(firmware, initPacket: packet, manifest: #"{"manifest": {}}"#)),
            .manifestInvalid(path: "manifest", problem: "no image (application, bootloader, softdevice or softdevice_bootloader)"))
        XCTAssertEqual(
            F.error(opening: try F.application(firmware, initPacket: packet, manifest: #"{"manifest": {"application": {"bin_file": "app.bin"}}}"#)),
            .manifestInvalid(path: "manifest.application", problem: "missing required key \"dat_file\""))
        XCTAssertEqual(
            F.error(opening: try F.application(firmware, initPacket: packet, manifest: #"{"manifest": {"application": {"bin_file": "a.bin", "dat_file": "app.dat"}}}"#)),
            .missingFile(entry: "application", name: "a.bin"))
        XCTAssertEqual(
            F.error(opening: try F.application(firmware, initPacket: packet, manifest: #"{"manifest": {"firmware": {}, "application": {}}}"#)),
            .manifestInvalid(
                path: "manifest.firmware",
                problem: "unknown key (known: softdevice_bootloader, softdevice, bootloader, application, dfu_version); a newer package format?"))
        XCTAssertEqual(
            F.error(opening: try F.application(firmware, initPacket: packet, manifest: #"{"manifest": {"application": {"bin_file": 3, "dat_file": "app.dat"}}}"#)),
            .manifestInvalid(path: "manifest.application.bin_file", problem: "expected a string, found a number"))
    }

    func testUnsafeFileNames() throws {
        let packet = try goodPacket()
        for name in ["../app.bin", "/etc/app.bin", "..\\app.bin", "C:/app.bin"] {
            let manifest = #"{"manifest": {"application": {"bin_file": \#(JSONText.quoted(name)), "dat_file": "app.dat"}}}"#
            XCTAssertEqual(
                F.error(opening: try F.application(firmware, initPacket: packet, manifest: manifest)),
                .manifestInvalid(path: "manifest.application.bin_file", problem: "unsafe file name \"\(name)\" (absolute, '..' or backslash)"),
                name)
        }
        let evil = try F.zip([("manifest.json", Array("{}".utf8)), ("../evil.bin", firmware)])
        XCTAssertEqual(F.error(opening: evil), .archive(.unsafeEntryName("../evil.bin")))
    }

    func testMismatchedHash() throws {
        var other = firmware
        other[10] ^= 0xFF
        let error = F.error(opening: try F.application(other, initPacket: try goodPacket()))
        XCTAssertEqual(
            error, .hashMismatch(entry: "application", file: "app.bin", declared: Array(SHA256.hash(data: firmware)), actual: Array(SHA256.hash(data: other))))
    }

    func testMismatchedSize() throws {
        let error = F.error(opening: try F.application(firmware + [0], initPacket: try goodPacket()))
        XCTAssertEqual(error, .sizeMismatch(entry: "application", file: "app.bin", field: "the init packet's app_size", declared: 300, actual: 301))
    }

    func testTypeMismatch() throws {
        let packet = try F.packet(F.initCommand(firmware, type: .bootloader))
        XCTAssertEqual(F.error(opening: try F.application(firmware, initPacket: packet)), .typeMismatch(entry: "application", file: "app.dat", initPacketType: .bootloader))
    }

    func testNoHash() throws {
        let packet = try F.packet(F.field(4, 0) + F.field(7, UInt64(firmware.count)))
        XCTAssertEqual(F.error(opening: try F.application(firmware, initPacket: packet)), .unsupportedHash(entry: "application", file: "app.dat", hashType: nil))
    }

    func testBrokenInitPacketNamesTheFile() throws {
        XCTAssertEqual(
            F.error(opening: try F.application(firmware, initPacket: [0x0A, 0x05])),
            .initPacket(entry: "application", file: "app.dat", .lengthPastEnd(offset: 1, length: 5, available: 0)))
    }

    func testCombinedSizesMustAddUp() throws {
        let packet = try F.packet(F.initCommand(firmware, type: .softDeviceBootloader, sizes: (200, 50)))
        let manifest = #"{"manifest": {"softdevice_bootloader": {"bin_file": "app.bin", "dat_file": "app.dat"}}}"#
        XCTAssertEqual(
            F.error(opening: try F.application(firmware, initPacket: packet, manifest: manifest)),
            .sizeMismatch(entry: "softdevice_bootloader", file: "app.bin", field: "sd_size + bl_size", declared: 250, actual: 300))
        let good = try F.packet(F.initCommand(firmware, type: .softDeviceBootloader, sizes: (200, 100)))
        let metadata = #"{"manifest": {"softdevice_bootloader": {"bin_file": "app.bin", "dat_file": "app.dat", "info_read_only_metadata": {"sd_size": 100, "bl_size": 200}}}}"#
        XCTAssertEqual(
            F.error(opening: try F.application(firmware, initPacket: good, manifest: metadata)),
            .sizeMismatch(entry: "softdevice_bootloader", file: "app.bin", field: "manifest sd_size", declared: 100, actual: 200))
        let negative = #"{"manifest": {"softdevice_bootloader": {"bin_file": "app.bin", "dat_file": "app.dat", "info_read_only_metadata": {"sd_size": -1}}}}"#
        XCTAssertEqual(
            F.error(opening: try F.application(firmware, initPacket: good, manifest: negative)),
            .manifestInvalid(
                path: "manifest.softdevice_bootloader.info_read_only_metadata.sd_size", problem: "expected a size in bytes (0 to 4294967295), found -1"))
        let image = try NordicDFUPackage(data: try F.application(firmware, initPacket: good, manifest: manifest), name: "sdbl.zip").images[0]
        XCTAssertEqual([image.softDeviceSize, image.bootloaderSize, image.applicationSize], [200, 100, 0])
    }

    func testWrongKeyAndCorruptedSignature() throws {
        let key = P256.Signing.PrivateKey()
        var packet = try goodPacket(signedWith: key)
        let package = try NordicDFUPackage(data: try F.application(firmware, initPacket: packet), name: "signed.zip")
        XCTAssertEqual(package.images[0].signatureCheck(with: DFUPublicKey(P256.Signing.PrivateKey().publicKey)), .failed)
        packet[packet.count - 5] ^= 0x40
        let corrupted = try NordicDFUPackage(data: try F.application(firmware, initPacket: packet), name: "corrupted.zip")
        XCTAssertEqual(corrupted.images[0].signatureCheck(with: DFUPublicKey(key.publicKey)), .failed)
        let unsigned = try NordicDFUPackage(data: try F.application(firmware, initPacket: try goodPacket()), name: "unsigned.zip")
        XCTAssertEqual(unsigned.images[0].signatureCheck(with: DFUPublicKey(key.publicKey)), .unsigned)
    }

    func testKeysFromPEM() throws {
        let key = P256.Signing.PrivateKey()
        XCTAssertEqual(try DFUPublicKey(pem: key.publicKey.pemRepresentation, source: "pk.pem").key.rawRepresentation, key.publicKey.rawRepresentation)
        XCTAssertEqual(try DFUPublicKey(pem: key.pemRepresentation, source: "sk.pem").key.rawRepresentation, key.publicKey.rawRepresentation)
        XCTAssertThrowsError(try DFUPublicKey(pem: "hello", source: "x.pem")) { error in
            XCTAssertEqual(error as? NordicDFUPackageError, .invalidKey(source: "x.pem", reason: "not PEM (no -----BEGIN line)"))
        }
        let p384 = P384.Signing.PrivateKey().publicKey.pemRepresentation
        XCTAssertThrowsError(try DFUPublicKey(pem: p384, source: "p384.pem")) { error in
            XCTAssertEqual(error as? NordicDFUPackageError, .invalidKey(source: "p384.pem", reason: "not an ECDSA P-256 key in PEM"))
        }
    }

    func testBareApplications() throws {
        let binary = try NordicDFUPackage(bareApplication: firmware, name: "/tmp/app.bin")
        XCTAssertEqual(binary.kind, .bareApplication)
        XCTAssertEqual(binary.images.map(\.binFile), ["app.bin"])
        XCTAssertEqual(binary.images.first?.initPacket, NordicDFUImage.InitPacket.none)
        XCTAssertEqual(binary.images.first?.applicationSize, 300)
        let hex = Array(":0400000001020304F2\n:00000001FF\n".utf8)
        XCTAssertEqual(try NordicDFUPackage(bareApplication: hex, name: "app.hex").images.first?.firmware, [1, 2, 3, 4])
        let split = Array(":0400000001020304F2\n:0400100005060708D2\n:00000001FF\n".utf8)
        XCTAssertThrowsError(try NordicDFUPackage(bareApplication: split, name: "app.hex")) { error in
            XCTAssertEqual(
                error as? NordicDFUPackageError,
                .severalRanges(
                    path: "app.hex",
                    [IntelHexRange(address: 0, count: 4, startsWithMCUbootMagic: false), IntelHexRange(address: 0x10, count: 4, startsWithMCUbootMagic: false)]))
        }
    }

    func testErrorMessagesSayWhatAndWhere() {
        XCTAssertEqual(
            NordicDFUPackageError.crcMismatch(entry: "application", file: "app.bin", declared: 0x035F, actual: 0x1234).description,
            "application image \"app.bin\" has CRC-16 0x1234 but its init packet says 0x035f; the image or its init packet was replaced — rebuild the package")
        let long = NordicDFUPackageError.missingFile(entry: "application", name: String(repeating: "a", count: 300) + "\u{1B}").description
        XCTAssertTrue(long.hasSuffix(String(repeating: "a", count: 200) + "…\" is not in the archive"), long)
        XCTAssertFalse(long.contains(String(repeating: "a", count: 201)), long)
    }
}

/// JSON string literals for hand-written manifests.
private enum JSONText {
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\") + "\""
    }
}
