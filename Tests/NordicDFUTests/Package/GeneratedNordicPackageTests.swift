import NordicDFU
import SMP
import XCTest

/// Packages from the independent encoder (Google's protobuf, `cryptography`): every field the
/// script wrote is read back, the signed bytes are the ones it signed, and its signatures verify
/// with its key and no other.
final class GeneratedNordicPackageTests: XCTestCase {
    private func open(_ name: String) throws -> (package: NordicDFUPackage, expected: GeneratedNordicPackages.Package, set: GeneratedNordicPackages) {
        let set = try GeneratedNordicPackages.load()
        let expected = try XCTUnwrap(set.packages[name], "the script made no \(name)")
        let package = try NordicDFUPackage(contentsOf: set.path(name))
        XCTAssertTrue(NordicDFUPackage.isNordicDFUPackage(try Data(contentsOf: URL(fileURLWithPath: set.path(name)))), name)
        XCTAssertEqual(package.kind.rawValue, "nordic-\(expected.kind)-dfu", name)
        XCTAssertEqual(package.manifest?.dfuVersion, expected.dfuVersion, name)
        // The script lists images in manifest order; the package is in install order.
        let images = expected.images.sorted { (DFUFirmwareType(rawValue: $0.type) ?? .application) < (DFUFirmwareType(rawValue: $1.type) ?? .application) }
        XCTAssertEqual(package.images.map(\.type.rawValue), images.map(\.type), name)
        for (image, want) in zip(package.images, images) {
            XCTAssertEqual(image.binFile, want.binFile, name)
            XCTAssertEqual(image.datFile, want.datFile, name)
            XCTAssertEqual(image.firmware.count, want.size, name)
            XCTAssertEqual(Hex.string(image.sha256), want.sha256, name)
            XCTAssertEqual(image.initPacket.bytes, GeneratedNordicPackages.bytes(want.initPacket), name)
            switch image.initPacket {
            case .secure(let packet):
                XCTAssertEqual(packet.command.firmwareVersion, want.fwVersion, name)
                XCTAssertEqual(packet.command.hardwareVersion, want.hwVersion, name)
                XCTAssertEqual(packet.command.softDeviceRequirements, want.sdReq, name)
                XCTAssertEqual(packet.command.isDebug, want.isDebug, name)
                XCTAssertEqual(packet.signature != nil, want.signed, name)
                XCTAssertEqual(packet.initCommandBytes, GeneratedNordicPackages.bytes(want.initCommand ?? ""), name)
            case .legacy(let packet):
                XCTAssertEqual(packet.applicationVersion, want.appVersion, name)
                XCTAssertEqual(packet.softDeviceRequirements.map(UInt32.init), want.sdReq, name)
                if case .crc16(let crc) = packet.integrity { XCTAssertEqual(crc, want.crc16, name) }
                XCTAssertEqual(image.crc16, want.crc16, name)
            case .none:
                XCTFail("\(name): an image without an init packet")
            }
        }
        return (package, expected, set)
    }

    private func key(_ set: GeneratedNordicPackages, _ name: String) throws -> DFUPublicKey {
        try DFUPublicKey(contentsOf: set.path(name))
    }

    func testSignedApplication() throws {
        let (package, _, set) = try open("secure-signed.zip")
        let publicKey = try key(set, "public.pem")
        let otherKey = try key(set, "other-public.pem")
        XCTAssertEqual(package.images.map { $0.signatureCheck(with: publicKey) }, [.verified])
        XCTAssertEqual(package.images.map { $0.signatureCheck(with: otherKey) }, [.failed])
        // The private key file gives the same public key.
        XCTAssertEqual(package.images.first?.signatureCheck(with: try key(set, "key.pem")), .verified)
    }

    func testUnsignedDebugApplication() throws {
        let (package, _, set) = try open("secure-unsigned.zip")
        XCTAssertEqual(package.images.first?.signatureCheck(with: try key(set, "public.pem")), .unsigned)
    }

    func testUnpackedSoftDeviceRequirements() throws {
        let (package, _, set) = try open("secure-unpacked.zip")
        XCTAssertEqual(package.images.first?.signatureCheck(with: try key(set, "public.pem")), .verified)
    }

    func testExternalApplicationListedAsApplication() throws {
        let (package, _, _) = try open("secure-external.zip")
        XCTAssertEqual(package.images.map(\.type), [.externalApplication])
    }

    func testSoftDeviceBootloaderAndApplication() throws {
        let (package, _, set) = try open("secure-multi.zip")
        XCTAssertEqual(package.images.map(\.type), [.softDeviceBootloader, .application])
        let combined = package.images[0]
        XCTAssertEqual([combined.softDeviceSize, combined.bootloaderSize, combined.applicationSize], [4096, 1904, 0])
        let publicKey = try key(set, "public.pem")
        XCTAssertEqual(package.images.map { $0.signatureCheck(with: publicKey) }, [.verified, .verified])
    }

    func testLegacyPackages() throws {
        let set = try GeneratedNordicPackages.load()
        for name in ["legacy-0.5.zip", "legacy-0.7.zip", "legacy-sdbl-0.5.zip"] {
            let (package, _, _) = try open(name)
            XCTAssertEqual(package.images.first?.signatureCheck(with: try key(set, "public.pem")), .unsigned, name)
        }
        let combined = try open("legacy-sdbl-0.5.zip").package.images[0]
        XCTAssertEqual([combined.softDeviceSize, combined.bootloaderSize], [2000, 1000])
    }
}
