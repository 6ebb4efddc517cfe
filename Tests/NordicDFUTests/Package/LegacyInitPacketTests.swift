import Crypto
import NordicDFU
import XCTest

/// The legacy DFU extended init packet: its four variants, the CRC it carries, and malformed layouts.
final class LegacyInitPacketTests: XCTestCase {
    private static let header: [UInt8] = [0x34, 0x12, 0x02, 0x00, 0x07, 0x00, 0x00, 0x00, 0x02, 0x00, 0x88, 0x00, 0xFE, 0xFF]

    private func decode(_ bytes: [UInt8]) -> InitPacketError? {
        do {
            _ = try LegacyInitPacket(bytes: bytes)
            return nil
        } catch {
            return error
        }
    }

    func testDFU05WithCRC() throws {
        let packet = try LegacyInitPacket(bytes: Self.header + [0x5F, 0x03])
        XCTAssertEqual(packet.deviceType, 0x1234)
        XCTAssertEqual(packet.deviceRevision, 2)
        XCTAssertEqual(packet.applicationVersion, 7)
        XCTAssertEqual(packet.softDeviceRequirements, [0x88, 0xFFFE])
        XCTAssertNil(packet.extendedPacketID)
        XCTAssertEqual(packet.integrity, .crc16(0x035F))
    }

    func testDFU06To08Variants() throws {
        XCTAssertEqual(try LegacyInitPacket(bytes: Self.header + [0, 0, 0, 0, 0x34, 0x12]).integrity, .crc16(0x1234))
        let digest = [UInt8](repeating: 0xAB, count: 32)
        let hashed = try LegacyInitPacket(bytes: Self.header + [1, 0, 0, 0, 0x00, 0x01, 0, 0] + digest)
        XCTAssertEqual(hashed.extendedPacketID, 1)
        XCTAssertEqual(hashed.integrity, .sha256(length: 256, digest: digest, signature: nil))
        let signature = [UInt8](repeating: 0xCD, count: 64)
        let signed = try LegacyInitPacket(bytes: Self.header + [2, 0, 0, 0, 0x00, 0x01, 0, 0] + digest + signature)
        XCTAssertEqual(signed.integrity, .sha256(length: 256, digest: digest, signature: signature))
    }

    /// The CRC is CRC-16/CCITT-FALSE: its check value is 0x29B1.
    func testImageCRC16IsCCITTFalse() throws {
        let package = try NordicDFUPackage(bareApplication: Array("123456789".utf8), name: "check.bin")
        XCTAssertEqual(package.images.first?.crc16, 0x29B1)
    }

    func testMalformed() {
        XCTAssertEqual(decode([0x34, 0x12, 0x02]), .truncated(offset: 2, needed: 2, available: 1))
        XCTAssertEqual(
            decode([0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0x00, 0, 0]),
            .malformedLegacyPacket(offset: 8, problem: "16 SoftDevice IDs need 32 bytes, 2 are left"))
        XCTAssertEqual(
            decode(Self.header + [7, 0, 0, 0, 0, 0]),
            .malformedLegacyPacket(offset: 14, problem: "unknown extended packet ID 7 (known: 0 CRC-16, 1 SHA-256, 2 signed)"))
        XCTAssertEqual(
            decode(Self.header + [1, 0, 0, 0, 0, 0]),
            .malformedLegacyPacket(offset: 18, problem: "extended packet ID 1 needs 36 more bytes, 2 are left"))
        XCTAssertEqual(decode(Self.header + [0]), .truncated(offset: 14, needed: 4, available: 1))
    }
}
