import SMPFirmware
import XCTest

/// Hand-built images for what imgtool 2.5.0 does not make: every flag, encrypted bodies, pure
/// signatures, unusual trailers (these run without Python).
final class SyntheticImageTests: XCTestCase {
    /// TLV entries: type and value.
    private typealias Entries = [(UInt16, [UInt8])]

    /// An image: a 32-byte header, `body`, an optional protected area and an unprotected area.
    private func makeImage(
        flags: UInt32 = 0, body: [UInt8] = [1, 2, 3], protected: Entries = [],
        unprotected: (_ hashed: [UInt8]) -> Entries = { [(0x10, MCUbootHashAlgorithm.sha256.digest($0[...]))] }
    ) -> [UInt8] {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func area(_ magic: UInt16, _ entries: Entries) -> [UInt8] {
            let content = entries.flatMap { le16(Int($0.0)) + le16($0.1.count) + $0.1 }
            return le16(Int(magic)) + le16(4 + content.count) + content
        }
        let protectedArea = protected.isEmpty ? [] : area(0x6908, protected)
        var header = le32(MCUbootImageHeader.magic) + le32(0) + le16(32) + le16(protectedArea.count)
        header += le32(UInt32(body.count)) + le32(flags) + [1, 2] + le16(3) + le32(4) + le32(0)
        let hashed = header + body + protectedArea
        return hashed + area(0x6907, unprotected(hashed))
    }

    func testEveryFlagHasItsName() throws {
        let image = try MCUbootImage(bytes: makeImage(flags: 0x0000_0f3d | 0x0001_0000))
        XCTAssertEqual(image.header.flags.names, [
            "PIC", "ENCRYPTED_AES128", "ENCRYPTED_AES256", "NON_BOOTABLE", "RAM_LOAD", "ROM_FIXED",
            "COMPRESSED_LZMA1", "COMPRESSED_LZMA2", "COMPRESSED_ARM_THUMB_FLT", "0x00010000",
        ])
        XCTAssertEqual(try MCUbootImage(bytes: makeImage()).header.flags.description, "none")
        XCTAssertEqual(MCUbootImageFlags([.ramLoad, .romFixed]).description, "RAM_LOAD|ROM_FIXED")
    }

    func testEncryptedImagesAreNotHashChecked() throws {
        for flag in [MCUbootImageFlags.encryptedAES128, .encryptedAES256] {
            let bytes = makeImage(flags: flag.rawValue) { _ -> Entries in [(0x10, Array(repeating: 0xaa, count: 32)), (0x31, [1, 2])] }
            let image = try MCUbootImage(bytes: bytes)
            XCTAssertEqual(image.hashChecks.map(\.status), [.encrypted])
            XCTAssertEqual(image.imageHash, Array(repeating: 0xaa, count: 32))
            XCTAssertEqual(image.tlvs.last?.type.name, "ENC_KW")
            XCTAssertNoThrow(try image.verifyHash())
        }
    }

    func testPureSignatureHasNoHash() throws {
        let image = try MCUbootImage(bytes: makeImage { _ -> Entries in [(0x02, [9, 9]), (0x25, [0]), (0x24, Array(repeating: 7, count: 64))] })
        XCTAssertTrue(image.isPureSignature)
        XCTAssertNil(image.imageHash)
        XCTAssertNil(image.imageHashHex)
        XCTAssertEqual(image.hashChecks, [])
        XCTAssertEqual(image.signatures.map(\.type), [.ed25519])
        XCTAssertEqual(image.signingKeys, [.publicKey([9, 9])])
    }

    func testEveryTLVTypeHasItsName() {
        let names: [UInt16: String] = [
            0x01: "KEYHASH", 0x02: "PUBKEY", 0x10: "SHA256", 0x11: "SHA384", 0x12: "SHA512", 0x20: "RSA2048_PSS",
            0x21: "ECDSA224", 0x22: "ECDSA_SIG", 0x23: "RSA3072_PSS", 0x24: "ED25519", 0x25: "SIG_PURE",
            0x30: "ENC_RSA2048", 0x31: "ENC_KW", 0x32: "ENC_EC256", 0x33: "ENC_X25519", 0x34: "ENC_X25519_SHA512",
            0x40: "DEPENDENCY", 0x50: "SEC_CNT", 0x60: "BOOT_RECORD", 0x70: "DECOMP_SIZE", 0x71: "DECOMP_SHA",
            0x72: "DECOMP_SIGNATURE", 0x73: "COMP_DEC_SIZE", 0x74: "UUID_VID", 0x75: "UUID_CID",
        ]
        for (type, name) in names { XCTAssertEqual(MCUbootTLVType(rawValue: type).name, name) }
        XCTAssertNil(MCUbootTLVType(rawValue: 0xffff).name)
        XCTAssertEqual(MCUbootTLVType(rawValue: 0x00a0).description, "VENDOR_0x00a0")
        XCTAssertEqual(MCUbootTLVType(rawValue: 0x0013).description, "0x0013")
    }

    func testProtectedTLVsAreHashedAndHeaderFieldsRead() throws {
        let bytes = makeImage(protected: [(0x50, [1, 0, 0, 0]), (0x74, Array(repeating: 0x11, count: 16))])
        let image = try MCUbootImage(bytes: bytes)
        XCTAssertEqual(image.header.version, MCUbootImageVersion(major: 1, minor: 2, revision: 3, build: 4))
        XCTAssertEqual(image.header.protectedTLVSize, 4 + 8 + 20)
        XCTAssertEqual(image.protectedArea?.entries.map(\.type), [.securityCounter, .uuidVendor])
        XCTAssertEqual(image.hashChecks.first?.status, .valid)
        XCTAssertEqual(image.totalSize, bytes.count)
        XCTAssertNil(image.trailer)
    }

    func testTrailerWithLargerAlignment() throws {
        // BOOT_MAX_ALIGN 16: u16 align + 14 magic bytes; image OK 16 + 16 bytes before the end.
        var bytes = makeImage() + Array(repeating: 0xff, count: 64)
        let tail: [UInt8] = [0x10, 0x00, 0x2d, 0xe1, 0x5d, 0x29, 0x41, 0x0b, 0x8d, 0x77, 0x67, 0x9c, 0x11, 0x0f, 0x1f, 0x8a]
        bytes.replaceSubrange((bytes.count - 16)..., with: tail)
        XCTAssertEqual(try MCUbootImage(bytes: bytes).trailer?.isConfirmed, false)
        bytes[bytes.count - 32] = 0x01
        let trailer = try XCTUnwrap(MCUbootImage(bytes: bytes).trailer)
        XCTAssertEqual(trailer.maxAlign, 16)
        XCTAssertTrue(trailer.isConfirmed)
    }

    func testTooShortAndHeaderOnly() {
        XCTAssertThrowsError(try MCUbootImage(bytes: [])) { XCTAssertEqual($0 as? MCUbootImageError, .tooShortForHeader(fileSize: 0)) }
        XCTAssertThrowsError(try MCUbootImage(bytes: Array(makeImage().prefix(32)))) { error in
            XCTAssertEqual(error as? MCUbootImageError, .bodyBeyondFile(bodyEnd: 35, fileSize: 32))
            XCTAssertEqual("\(error)", "truncated image: header and body end at offset 0x23 but the file has only 32 bytes")
        }
    }
}
