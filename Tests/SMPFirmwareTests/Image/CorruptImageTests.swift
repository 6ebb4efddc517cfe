import SMPFirmware
import SMPTestSupport
import XCTest

/// Damaged copies of real imgtool images: each gives its exact error (with the byte offset), never a crash.
final class CorruptImageTests: XCTestCase {
    func testTruncatedAtEveryOffset() throws {
        let images = try ImgtoolImages.load()
        for name in ["unsigned-h20", "ecdsa-p256"] {
            let entry = try images.image(name)
            let bytes = try entry.bytes()
            let bodyEnd = entry.headerSize + entry.imageSize
            let unprotected = bodyEnd + entry.protectedTLVSize
            for size in 0..<entry.totalSize {
                let expected: MCUbootImageError =
                    if size < 32 { .tooShortForHeader(fileSize: size) }
                    else if size < bodyEnd { .bodyBeyondFile(bodyEnd: bodyEnd, fileSize: size) }
                    else if size < unprotected && size < bodyEnd + 4 {
                        .truncatedTLVAreaHeader(area: .protected, offset: bodyEnd, fileSize: size)
                    } else if size < unprotected {
                        .tlvAreaBeyondFile(area: .protected, offset: bodyEnd, totalSize: entry.protectedTLVSize, fileSize: size)
                    } else if size < unprotected + 4 {
                        .truncatedTLVAreaHeader(area: .unprotected, offset: unprotected, fileSize: size)
                    } else {
                        .tlvAreaBeyondFile(area: .unprotected, offset: unprotected, totalSize: entry.totalSize - unprotected, fileSize: size)
                    }
                XCTAssertThrowsError(try MCUbootImage(bytes: Array(bytes[..<size]))) { error in
                    XCTAssertEqual(error as? MCUbootImageError, expected, "\(name) cut to \(size) bytes")
                }
            }
            let whole = try MCUbootImage(bytes: Array(bytes[..<entry.totalSize]))
            XCTAssertEqual(whole.imageHashHex, entry.sha256, "\(name) whole: imgtool's hash")
        }
    }

    func testFlippedBytesInHashedRegionsAreHashMismatches() throws {
        let entry = try ImgtoolImages.load().image("ecdsa-p256")
        let original = try entry.bytes()
        let hashTLV = try XCTUnwrap(MCUbootImage(bytes: original).hashChecks.first)
        // Header padding, body start, body end, the protected TLV value.
        let bodyEnd = entry.headerSize + entry.imageSize
        for offset in [0x100, entry.headerSize, bodyEnd - 1, bodyEnd + 8] {
            var bytes = original
            bytes[offset] ^= 0x40
            let image = try MCUbootImage(bytes: bytes)
            let check = try XCTUnwrap(image.hashChecks.first)
            XCTAssertEqual(check.status, .mismatch, "offset \(offset)")
            XCTAssertEqual(check.expected, hashTLV.expected)
            XCTAssertEqual(check.computed, MCUbootHashAlgorithm.sha256.digest(bytes[..<(bodyEnd + entry.protectedTLVSize)]))
            XCTAssertNotEqual(check.computed, check.expected)
            XCTAssertThrowsError(try image.verifyHash()) { error in
                XCTAssertEqual(
                    error as? MCUbootImageError,
                    .hashMismatch(type: .sha256, offset: hashTLV.offset, expected: check.expected, computed: check.computed))
                XCTAssertTrue("\(error)".hasPrefix("image hash mismatch: the SHA256 TLV at offset "), "\(error)")
            }
        }
        // The signature is in the unprotected area, which the hash does not cover.
        var bytes = original
        bytes[entry.totalSize - 1] ^= 0x01
        XCTAssertEqual(try MCUbootImage(bytes: bytes).hashChecks.first?.status, .valid)
    }

    func testBadMagics() throws {
        let original = try ImgtoolImages.load().image("unsigned-h200").bytes()
        let cases: [([UInt8], MCUbootImageError, String)] = [
            ([0x3c, 0xb8, 0xf3, 0x96], .legacyMagic, "unsupported legacy MCUboot v1 image: magic 0x96f3b83c at offset 0"),
            ([0xff, 0xff, 0xff, 0xff], .badMagic(found: 0xffff_ffff),
             "not an MCUboot image: magic 0xffffffff (erased flash) at offset 0, expected 0x96f3b83d"),
            ([0x3d, 0xb8, 0xf3, 0x97], .badMagic(found: 0x97f3_b83d),
             "not an MCUboot image: magic 0x97f3b83d at offset 0, expected 0x96f3b83d"),
        ]
        for (magic, expected, message) in cases {
            var bytes = original
            bytes.replaceSubrange(0..<4, with: magic)
            XCTAssertThrowsError(try MCUbootImage(bytes: bytes)) { error in
                XCTAssertEqual(error as? MCUbootImageError, expected)
                XCTAssertEqual("\(error)", message)
                XCTAssertEqual((error as? MCUbootImageError)?.offset, 0)
            }
        }
    }

    func testCorruptHeaderFields() throws {
        let entry = try ImgtoolImages.load().image("ecdsa-p256")
        let original = try entry.bytes()
        let bodyEnd = entry.headerSize + entry.imageSize
        let unprotected = bodyEnd + entry.protectedTLVSize
        let cases: [(Int, [UInt8], MCUbootImageError)] = [
            (8, [0x10, 0x00], .headerSizeTooSmall(16)),
            (12, [0xff, 0xff, 0xff, 0x7f], .bodyBeyondFile(bodyEnd: entry.headerSize + 0x7fff_ffff, fileSize: original.count)),
            // No protected area declared: the unprotected area is looked for where the protected one is.
            (10, [0x00, 0x00], .badTLVAreaMagic(area: .unprotected, offset: bodyEnd, found: 0x6908)),
            (10, [UInt8(entry.protectedTLVSize + 4), 0x00],
             .protectedSizeMismatch(offset: bodyEnd, headerSize: entry.protectedTLVSize + 4, areaSize: entry.protectedTLVSize)),
            (bodyEnd, [0x07, 0x69], .badTLVAreaMagic(area: .protected, offset: bodyEnd, found: 0x6907)),
            (unprotected, [0x08, 0x69], .badTLVAreaMagic(area: .unprotected, offset: unprotected, found: 0x6908)),
            (unprotected + 2, [0x02, 0x00], .tlvAreaTooSmall(area: .unprotected, offset: unprotected, totalSize: 2)),
            (unprotected + 2, [0xff, 0xff],
             .tlvAreaBeyondFile(area: .unprotected, offset: unprotected, totalSize: 0xffff, fileSize: original.count)),
        ]
        for (offset, patch, expected) in cases {
            var bytes = original
            bytes.replaceSubrange(offset..<(offset + patch.count), with: patch)
            XCTAssertThrowsError(try MCUbootImage(bytes: bytes)) { error in
                XCTAssertEqual(error as? MCUbootImageError, expected, "patch at \(offset)")
            }
        }
    }

    func testCorruptTLVs() throws {
        let entry = try ImgtoolImages.load().image("ecdsa-p256")
        let original = try entry.bytes()
        let image = try MCUbootImage(bytes: original)
        let area = image.unprotectedArea
        let areaEnd = area.offset + area.totalSize
        let first = try XCTUnwrap(area.entries.first)
        let last = try XCTUnwrap(area.entries.last)
        let keyHash = try XCTUnwrap(area.entries.first { $0.type == .keyHash })
        let lastLength = UInt8(last.value.count)
        let cases: [(Int, [UInt8], MCUbootImageError)] = [
            // A TLV length running past its area.
            (first.offset + 2, [0xff, 0xff], .tlvPastAreaEnd(area: .unprotected, offset: first.offset, length: 0xffff, areaEnd: areaEnd)),
            // The area made shorter: the last value, then the last TLV header, no longer fit.
            (area.offset + 2, le16(last.offset + 4 + last.value.count - 1 - area.offset),
             .tlvPastAreaEnd(area: .unprotected, offset: last.offset, length: Int(lastLength), areaEnd: areaEnd - 1)),
            (area.offset + 2, le16(last.offset + 2 - area.offset),
             .tlvPastAreaEnd(area: .unprotected, offset: last.offset, length: nil, areaEnd: last.offset + 2)),
            // A second SHA-256 TLV, and a SHA-384 TLV with 32 bytes.
            (keyHash.offset, [0x10, 0x00], .duplicateHashTLV(type: .sha256, offset: keyHash.offset)),
            (first.offset, [0x11, 0x00], .badHashLength(type: .sha384, offset: first.offset, length: 32)),
            // The protected SEC_CNT TLV claiming more than its area.
            (entry.headerSize + entry.imageSize + 6, [0x09, 0x00],
             .tlvPastAreaEnd(area: .protected, offset: entry.headerSize + entry.imageSize + 4, length: 9,
                             areaEnd: entry.headerSize + entry.imageSize + entry.protectedTLVSize)),
        ]
        for (offset, patch, expected) in cases {
            var bytes = original
            bytes.replaceSubrange(offset..<(offset + patch.count), with: patch)
            XCTAssertThrowsError(try MCUbootImage(bytes: bytes)) { error in
                XCTAssertEqual(error as? MCUbootImageError, expected, "patch at \(offset)")
            }
        }
    }

    func testUnknownAndVendorTLVTypesKeepTheirNumbers() throws {
        let original = try ImgtoolImages.load().image("rsa2048").bytes()
        let keyHash = try XCTUnwrap(MCUbootImage(bytes: original).unprotectedArea.entries.first { $0.type == .keyHash })
        for (type, name, description) in [(UInt16(0x0099), nil, "0x0099"), (0x01a5, "VENDOR_0x01a5", "VENDOR_0x01a5")] {
            var bytes = original
            bytes.replaceSubrange(keyHash.offset..<(keyHash.offset + 2), with: le16(Int(type)))
            let image = try MCUbootImage(bytes: bytes)
            let tlv = try XCTUnwrap(image.tlvs.first { $0.offset == keyHash.offset })
            XCTAssertEqual(tlv.type.rawValue, type)
            XCTAssertEqual(tlv.type.name, name)
            XCTAssertEqual(tlv.type.description, description)
            XCTAssertEqual(image.signingKeys, [])
            XCTAssertEqual(image.hashChecks.first?.status, .valid)
        }
    }

    func testRandomDamageNeverCrashes() throws {
        let images = try ImgtoolImages.load()
        var random = SplitMix64(seed: 0x1A6E)
        var parsed = 0, rejected = 0
        for _ in 0..<3000 {
            var bytes = try random.pick(images.images.filter { $0.fileSize < 0x10000 }).bytes()
            for _ in 0...random.below(4) {
                let offset = random.oneIn(2) ? random.below(bytes.count) : max(0, bytes.count - 1 - random.below(400))
                bytes[offset] = UInt8(truncatingIfNeeded: random.next())
            }
            if random.oneIn(3) { bytes.removeLast(random.below(bytes.count)) }
            do {
                _ = try MCUbootImage(bytes: bytes)
                parsed += 1
            } catch {
                rejected += 1
                XCTAssertLessThanOrEqual(error.offset, bytes.count + 0xffff)
            }
        }
        XCTAssertGreaterThan(parsed, 0)
        XCTAssertGreaterThan(rejected, 0)
    }

    private func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8 & 0xff)] }
}
