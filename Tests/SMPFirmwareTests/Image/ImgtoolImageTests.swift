import SMP
import SMPFirmware
import XCTest

/// Every image imgtool makes parses to exactly what `imgtool dumpinfo` and Python's hashlib say.
final class ImgtoolImageTests: XCTestCase {
    /// The signature algorithm each signed image was made with.
    private static let signatureTypes: [String: MCUbootSignatureType] = [
        "rsa2048": .rsa2048, "rsa3072": .rsa3072, "ecdsa-p256": .ecdsaP256, "ecdsa-p384": .ecdsaP384,
        "ed25519-pubkey": .ed25519, "ed25519-sha512": .ed25519,
    ]

    func testImgtoolVersionIsThePinnedOne() throws {
        XCTAssertEqual(try ImgtoolImages.load().imgtool, "2.5.0")
    }

    func testEveryImageMatchesDumpinfo() throws {
        let images = try ImgtoolImages.load()
        XCTAssertEqual(images.images.count, 14)
        for entry in images.images {
            let image = try MCUbootImage(bytes: try entry.bytes())
            let header = entry.dumpinfo.header
            let context = entry.name
            XCTAssertEqual(header.magic, MCUbootImageHeader.magic, context)
            XCTAssertEqual(image.header.headerSize, entry.headerSize, context)
            XCTAssertEqual(image.header.headerSize, header.hdrSize, context)
            XCTAssertEqual(image.header.imageSize, header.imgSize, context)
            XCTAssertEqual(image.header.imageSize, entry.imageSize, context)
            XCTAssertEqual(image.header.protectedTLVSize, header.protectedTlvSize, context)
            XCTAssertEqual(image.header.loadAddress, header.loadAddr, context)
            XCTAssertEqual(image.header.flags.rawValue, header.flags, context)
            XCTAssertEqual(image.header.flags.rawValue, entry.flagsValue, context)
            XCTAssertEqual(image.header.flags.names, entry.flags, context)
            XCTAssertEqual(image.header.version.description, header.version, context)
            XCTAssertEqual(image.totalSize, entry.totalSize, context)
            XCTAssertEqual(image.fileSize, entry.fileSize, context)
            assertTLVs(image, entry)
            assertHashes(image, entry)
            assertSignature(image, entry)
            XCTAssertEqual(image.trailer != nil, entry.name == "padded-confirmed", context)
        }
    }

    func testVersionsAndFlagsOfParticularImages() throws {
        let images = try ImgtoolImages.load()
        let full = try MCUbootImage(bytes: try images.image("unsigned-h400").bytes())
        XCTAssertEqual(full.header.version, MCUbootImageVersion(major: 255, minor: 255, revision: 65535, build: 4_294_967_295))
        let plain = try MCUbootImage(bytes: try images.image("unsigned-h200").bytes())
        XCTAssertEqual(plain.header.version.description, "1.2.3+4")
        XCTAssertEqual(plain.header.version.deviceString, "1.2.3.4")
        XCTAssertEqual(try MCUbootImage(bytes: try images.image("unsigned-h20").bytes()).header.version.deviceString, "0.0.1")
        let romFixed = try MCUbootImage(bytes: try images.image("rom-fixed").bytes())
        XCTAssertEqual(romFixed.header.flags, .romFixed)
        XCTAssertEqual(romFixed.header.loadAddress, 0x10000)
        let ramLoad = try MCUbootImage(bytes: try images.image("ram-load").bytes())
        XCTAssertEqual(ramLoad.header.flags, .ramLoad)
        XCTAssertEqual(ramLoad.header.loadAddress, 0x2000_0000)
        let nonBootable = try MCUbootImage(bytes: try images.image("non-bootable").bytes())
        XCTAssertEqual(nonBootable.header.flags, .nonBootable)
        XCTAssertEqual(nonBootable.protectedArea?.entries.map(\.type), [.securityCounter])
        XCTAssertEqual(nonBootable.protectedArea?.entries.first?.value, [0x00, 0x00, 0x02, 0x06], "-s auto: 6.2.0 → 0x06020000, little-endian")
    }

    func testPaddedConfirmedImageHasAConfirmedTrailer() throws {
        let entry = try ImgtoolImages.load().image("padded-confirmed")
        let image = try MCUbootImage(bytes: try entry.bytes())
        let trailer = try XCTUnwrap(image.trailer)
        XCTAssertTrue(trailer.isConfirmed)
        XCTAssertEqual(trailer.maxAlign, 8)
        XCTAssertEqual(trailer.magicOffset, 0x40000 - 16)
        XCTAssertEqual(image.fileSize, 0x40000)
        XCTAssertEqual(image.totalSize, entry.totalSize)
    }

    private func assertTLVs(_ image: MCUbootImage, _ entry: ImgtoolImages.Entry, line: UInt = #line) {
        let areas = entry.dumpinfo.tlvArea
        XCTAssertEqual(image.protectedArea?.totalSize, areas.tlvHdrProt?.tlvTot, entry.name, line: line)
        XCTAssertEqual(image.unprotectedArea.totalSize, areas.tlvHdr.tlvTot, entry.name, line: line)
        XCTAssertEqual(image.unprotectedArea.offset, entry.headerSize + entry.imageSize + entry.protectedTLVSize, entry.name, line: line)
        let expected = (areas.tlvsProt ?? []) + areas.tlvs
        XCTAssertEqual(image.tlvs.map(\.type.rawValue), expected.map(\.type), entry.name, line: line)
        XCTAssertEqual(image.tlvs.map(\.value.count), expected.map(\.len), entry.name, line: line)
        XCTAssertEqual(image.tlvs.map { Hex.string($0.value) }, expected.map(\.data), entry.name, line: line)
        XCTAssertTrue(image.tlvs.allSatisfy { $0.type.name != nil }, "every imgtool TLV has a name: \(entry.name)", line: line)
    }

    private func assertHashes(_ image: MCUbootImage, _ entry: ImgtoolImages.Entry, line: UInt = #line) {
        XCTAssertEqual(image.hashChecks.count, 1, entry.name, line: line)
        guard let check = image.hashChecks.first else { return }
        XCTAssertEqual(check.algorithm.rawValue.replacingOccurrences(of: "-", with: ""), entry.hashAlgorithm, entry.name, line: line)
        XCTAssertEqual(check.status, .valid, entry.name, line: line)
        XCTAssertEqual(Hex.string(check.computed), entry.hash, entry.name, line: line)
        XCTAssertEqual(Hex.string(check.expected), entry.hash, entry.name, line: line)
        XCTAssertEqual(image.imageHashHex, entry.sha256, entry.name, line: line)
        XCTAssertEqual(image.imageHash?.count, entry.sha256 == nil ? nil : 32, entry.name, line: line)
        XCTAssertNoThrow(try image.verifyHash(), entry.name, line: line)
    }

    private func assertSignature(_ image: MCUbootImage, _ entry: ImgtoolImages.Entry, line: UInt = #line) {
        XCTAssertEqual(image.signatures.map(\.type), Self.signatureTypes[entry.name].map { [$0] } ?? [], entry.name, line: line)
        XCTAssertEqual(
            image.signatures.compactMap { signature in image.tlvs.first { $0.offset == signature.offset }?.type.name },
            entry.signature.map { [$0] } ?? [], entry.name, line: line)
        let keyKinds = image.signingKeys.map { key -> String in
            switch key {
            case .keyHash: return "KEYHASH"
            case .publicKey: return "PUBKEY"
            }
        }
        XCTAssertEqual(keyKinds, entry.keyTLV.map { [$0] } ?? [], entry.name, line: line)
        XCTAssertFalse(image.isPureSignature, entry.name, line: line)
    }
}
