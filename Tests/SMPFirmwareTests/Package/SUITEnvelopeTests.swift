import CBOR
import Crypto
import Foundation
import XCTest
@testable import SMPFirmware

/// SUIT envelopes: strict decoding, the file's SHA-256, the manifest digest and what the manifest names.
final class SUITEnvelopeTests: XCTestCase {
    private func encode(_ item: CBOR) -> [UInt8] {
        var writer = CBORWriter()
        writer.write(item)
        return writer.bytes
    }

    /// An envelope like NCS's: an authentication wrapper with a SHA-256 digest and a manifest
    /// with a sequence number and two components.
    private func envelope(sequence: UInt64 = 5) -> [UInt8] {
        let digest = CBOR.array([.int(-16), .bytes([UInt8](repeating: 0xAB, count: 32))])
        let wrapper = CBOR.array([.bytes(encode(digest)), .bytes([0xD2, 0x84])])
        let common = CBOR.map([.unsigned(2): .array([.array([.bytes([0x4D]), .bytes([0x02])]), .array([.bytes([0x43, 0x41, 0x4E, 0x44])])])])
        let manifest = CBOR.map([.unsigned(1): .unsigned(1), .unsigned(2): .unsigned(sequence), .unsigned(3): .bytes(encode(common))])
        return encode(.tagged(107, .map([.unsigned(2): .bytes(encode(wrapper)), .unsigned(3): .bytes(encode(manifest))])))
    }

    func testEnvelopeDigestSequenceAndComponents() throws {
        let bytes = envelope()
        let package = try PackageFixtures.open(Data(bytes), name: "root.suit")
        XCTAssertEqual(package.kind, .suitEnvelope)
        let suit = try XCTUnwrap(package.suitEnvelope)
        XCTAssertEqual(suit.sha256, Array(SHA256.hash(data: bytes)))
        XCTAssertEqual(suit.manifestDigest, SUITEnvelope.Digest(algorithm: -16, bytes: [UInt8](repeating: 0xAB, count: 32)))
        XCTAssertEqual(suit.manifestDigest?.algorithmName, "sha-256")
        XCTAssertEqual(suit.sequenceNumber, 5)
        XCTAssertEqual(suit.componentIDs, [[[0x4D], [0x02]], [[0x43, 0x41, 0x4E, 0x44]]])
        XCTAssertEqual(package.images.map(\.target), [.suitEnvelope])
        XCTAssertEqual(package.images.first?.fileName, "root.suit")
    }

    func testMinimalEnvelopeClaimsNothingItDoesNotHave() throws {
        let bytes = encode(.tagged(107, .map([.unsigned(99): .text("x")])))
        let suit = try SUITEnvelope(bytes: bytes)
        XCTAssertEqual(suit.sha256, Array(SHA256.hash(data: bytes)))
        XCTAssertNil(suit.manifestDigest)
        XCTAssertNil(suit.sequenceNumber)
        XCTAssertEqual(suit.componentIDs, [])
    }

    func testMalformedEnvelopes() {
        func failure(_ bytes: [UInt8]) -> String? {
            do {
                _ = try SUITEnvelope(bytes: bytes)
                return nil
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(failure(encode(.tagged(107, .array([])))), "invalid SUIT envelope: tag 107 does not hold a map but array")
        XCTAssertEqual(failure(encode(.tagged(108, .map([:])))), "invalid SUIT envelope: not CBOR tag 107 (SUIT_Envelope)")
        XCTAssertEqual(
            failure(encode(.tagged(107, .map([.unsigned(2): .text("x")])))),
            "invalid SUIT envelope: the authentication wrapper (key 2) is text string, not a byte string")
        XCTAssertEqual(
            failure(encode(.tagged(107, .map([.unsigned(2): .bytes(encode(.array([])))])))),
            "invalid SUIT envelope: the authentication wrapper (key 2) holds array, not a non-empty array")
        XCTAssertEqual(
            failure(encode(.tagged(107, .map([.unsigned(3): .bytes(encode(.map([.unsigned(2): .int(-1)])))])))),
            "invalid SUIT envelope: the manifest sequence number is a negative integer, not an unsigned integer")
        XCTAssertNotNil(failure(encode(.tagged(107, .map([:]))) + [0x00]), "trailing bytes are rejected")
        XCTAssertNotNil(failure([0xD8, 0x6B, 0xA1]), "truncated input is rejected")
    }

    func testSUITPackageSeparatesEnvelopeCachesAndResources() throws {
        let root = envelope(sequence: 9)
        let manifest = """
            {"format-version": 1, "files": [
              {"type": "suit-envelope", "file": "root.suit", "size": \(root.count)},
              {"type": "cache", "file": "cache_1.bin", "partition": "1"},
              {"type": "bin", "file": "app.bin"}]}
            """
        let data = try PackageFixtures.package(manifest: manifest, files: [("root.suit", root), ("cache_1.bin", [1, 2]), ("app.bin", [3])])
        let package = try PackageFixtures.open(data, name: "dfu_suit.zip")
        XCTAssertEqual(package.kind, .suitPackage)
        XCTAssertEqual(package.images.map(\.target), [.suitEnvelope, .suitCache(partition: 1)])
        XCTAssertEqual(package.resources.map(\.fileName), ["app.bin"])
        XCTAssertEqual(package.suitEnvelope?.sequenceNumber, 9)
        XCTAssertEqual(package.suitEnvelope?.sha256, Array(SHA256.hash(data: root)))
    }
}
