import Crypto
import NordicDFU
import XCTest

/// The Secure DFU init packet reader on packets built field by field: each field of
/// `dfu-cc.proto`, unknown fields skipped by wire type, and each kind of malformed input refused
/// with its own error and the byte offset.
final class SecureInitPacketTests: XCTestCase {
    private typealias F = NordicDFUFixtures

    func testUnsignedPacketDecodesEveryField() throws {
        let firmware = F.firmware(100)
        let command = F.initCommand(firmware, firmwareVersion: 9, softDeviceRequirements: [0xB7, 0x101])
            + F.field(10, bytes: F.field(1, 2) + F.field(2, bytes: [1, 2, 3]))
        let packet = try SecureInitPacket(bytes: try F.packet(command))
        XCTAssertNil(packet.signature)
        XCTAssertEqual(packet.initCommandBytes, command)
        XCTAssertEqual(packet.command.firmwareVersion, 9)
        XCTAssertEqual(packet.command.hardwareVersion, 52)
        XCTAssertEqual(packet.command.softDeviceRequirements, [0xB7, 0x101])
        XCTAssertEqual(packet.command.type, .application)
        XCTAssertEqual(packet.command.applicationSize, 100)
        XCTAssertEqual(packet.command.hash?.type, .sha256)
        XCTAssertEqual(packet.command.hash?.digest, Array(SHA256.hash(data: firmware)))
        XCTAssertEqual(packet.command.isDebug, false)
        XCTAssertEqual(packet.command.bootValidations.map(\.type), [.sha256])
        XCTAssertEqual(packet.command.bootValidations.map(\.bytes), [[1, 2, 3]])
    }

    func testUnpackedRepeatedFieldAndDefaults() throws {
        let command = F.field(3, 0xB6) + F.field(3, 0xCA) + F.field(9, 1)
        let packet = try SecureInitPacket(bytes: try F.packet(command))
        XCTAssertEqual(packet.command.softDeviceRequirements, [0xB6, 0xCA])
        XCTAssertEqual(packet.command.type, .application)
        XCTAssertNil(packet.command.firmwareVersion)
        XCTAssertEqual(packet.command.applicationSize, 0)
        XCTAssertTrue(packet.command.isDebug)
    }

    /// Unknown fields of every wire type are skipped, and the signed bytes keep them.
    func testUnknownFieldsAreSkippedAndKeptInTheSignedBytes() throws {
        let unknown = F.field(20, 5) + F.varint(21 << 3 | 1) + [UInt8](repeating: 0xAA, count: 8) + F.field(22, bytes: [9, 9])
            + F.varint(23 << 3 | 5) + [1, 2, 3, 4]
        let command = F.field(1, 3) + unknown
        let key = P256.Signing.PrivateKey()
        let packet = try SecureInitPacket(bytes: try F.packet(command, signedWith: key))
        XCTAssertEqual(packet.command.firmwareVersion, 3)
        XCTAssertEqual(packet.initCommandBytes, command)
        XCTAssertEqual(packet.signatureCheck(with: DFUPublicKey(key.publicKey)), .verified)
    }

    func testSignatureChecks() throws {
        let key = P256.Signing.PrivateKey()
        let command = F.initCommand(F.firmware(10))
        let signed = try F.packet(command, signedWith: key)
        let packet = try SecureInitPacket(bytes: signed)
        XCTAssertEqual(packet.signature?.type, .ecdsaP256SHA256)
        XCTAssertEqual(packet.signatureCheck(with: DFUPublicKey(key.publicKey)), .verified)
        XCTAssertEqual(packet.signatureCheck(with: DFUPublicKey(P256.Signing.PrivateKey().publicKey)), .failed)
        // A flipped bit in the signature (the packet's last byte: s's most significant byte, stored reversed).
        var corrupted = signed
        corrupted[corrupted.count - 1] ^= 0x01
        XCTAssertEqual(try SecureInitPacket(bytes: corrupted).signatureCheck(with: DFUPublicKey(key.publicKey)), .failed)
        // The signature in the usual (not byte-reversed) order does not verify.
        let raw = Array(try key.signature(for: command).rawRepresentation)
        let plain = F.field(2, bytes: F.field(1, bytes: F.field(1, 1) + F.field(2, bytes: command)) + F.field(2, 0) + F.field(3, bytes: raw))
        XCTAssertEqual(try SecureInitPacket(bytes: plain).signatureCheck(with: DFUPublicKey(key.publicKey)), .failed)
        XCTAssertEqual(try SecureInitPacket(bytes: try F.packet(command)).signatureCheck(with: DFUPublicKey(key.publicKey)), .unsigned)
        let ed25519 = F.field(2, bytes: F.field(1, bytes: F.field(1, 1) + F.field(2, bytes: command)) + F.field(2, 1) + F.field(3, bytes: raw))
        XCTAssertEqual(
            try SecureInitPacket(bytes: ed25519).signatureCheck(with: DFUPublicKey(key.publicKey)), .notChecked("Ed25519 signatures are not supported"))
    }

    // MARK: - Malformed packets

    func testTruncatedVarint() {
        // Packet.command, length 3, then Command.op_code's value cut off after a continuation byte.
        XCTAssertEqual(F.error(decoding: [0x0A, 0x02, 0x08, 0x81]), .truncated(offset: 3, needed: 2, available: 1))
        XCTAssertEqual(F.error(decoding: [0x88]), .truncated(offset: 0, needed: 2, available: 1))
    }

    func testVarintOverflow() {
        XCTAssertEqual(F.error(decoding: [0x08] + [UInt8](repeating: 0xFF, count: 9) + [0x02]), .varintOverflow(offset: 1))
        XCTAssertEqual(F.error(decoding: [0x08] + [UInt8](repeating: 0x80, count: 10) + [0x00]), .varintOverflow(offset: 1))
    }

    func testLengthPastEnd() {
        XCTAssertEqual(F.error(decoding: [0x0A, 0x05, 0x08, 0x01]), .lengthPastEnd(offset: 1, length: 5, available: 2))
        // A nested length that fits the packet but not its own message.
        XCTAssertEqual(F.error(decoding: [0x0A, 0x03, 0x12, 0x04, 0x00]), .lengthPastEnd(offset: 3, length: 4, available: 1))
    }

    func testHugeLengthIsRefusedBeforeAllocating() {
        let huge = F.varint(UInt64.max)
        XCTAssertEqual(F.error(decoding: [0x0A] + huge), .lengthPastEnd(offset: 1, length: UInt64.max, available: 0))
        XCTAssertEqual(F.error(decoding: [0x0A] + F.varint(1 << 40) + [0]), .lengthPastEnd(offset: 1, length: 1 << 40, available: 1))
    }

    func testBadWireTypes() {
        for wireType: UInt8 in [3, 4, 6, 7] {
            XCTAssertEqual(F.error(decoding: [0x08 | wireType, 0]), .invalidWireType(offset: 0, field: 1, wireType: Int(wireType)))
        }
        // Packet.command as a varint.
        XCTAssertEqual(F.error(decoding: [0x08, 0x01]), .unexpectedWireType(offset: 0, message: "Packet", field: "command", wireType: 0))
        // InitCommand.fw_version as bytes (F.packet puts the InitCommand at offset 6).
        let command = F.field(1, bytes: [1])
        XCTAssertEqual(
            F.error(decoding: try F.packet(command)), .unexpectedWireType(offset: 6, message: "InitCommand", field: "fw_version", wireType: 2))
    }

    func testFieldNumberZero() {
        XCTAssertEqual(F.error(decoding: [0x00, 0x00]), .invalidFieldNumber(offset: 0, number: 0))
    }

    func testOutOfRangeValues() throws {
        XCTAssertEqual(
            F.error(decoding: try F.packet(F.field(1, 1 << 32))),
            .valueOutOfRange(offset: 6, message: "InitCommand", field: "fw_version", value: 1 << 32))
        XCTAssertEqual(F.error(decoding: try F.packet(F.field(9, 2))), .valueOutOfRange(offset: 6, message: "InitCommand", field: "is_debug", value: 2))
        XCTAssertEqual(
            F.error(decoding: try F.packet(F.field(3, bytes: F.varint(1) + F.varint(1 << 33)))),
            .valueOutOfRange(offset: 9, message: "InitCommand", field: "sd_req", value: 1 << 33))
    }

    func testUnknownEnumValue() throws {
        XCTAssertEqual(F.error(decoding: try F.packet(F.field(4, 9))), .unknownEnumValue(message: "InitCommand", field: "type", value: 9))
    }

    func testDuplicateField() throws {
        XCTAssertEqual(
            F.error(decoding: try F.packet(F.field(1, 1) + F.field(1, 2))), .duplicateField(offset: 8, message: "InitCommand", field: "fw_version"))
        let command = F.field(1, 1) + F.field(2, bytes: [])
        XCTAssertEqual(F.error(decoding: F.field(1, bytes: command) + F.field(1, bytes: command)), .duplicateField(offset: 6, message: "Packet", field: "command"))
    }

    func testMissingRequiredFields() throws {
        XCTAssertEqual(F.error(decoding: try F.packet(F.field(8, bytes: F.field(1, 3)))), .missingField(message: "Hash", field: "hash"))
        let command = F.field(1, bytes: F.field(1, 1) + F.field(2, bytes: []))
        XCTAssertEqual(F.error(decoding: F.field(2, bytes: command + F.field(2, 0))), .missingField(message: "SignedCommand", field: "signature"))
        XCTAssertEqual(F.error(decoding: F.field(1, bytes: F.field(1, 1))), .missingField(message: "Command", field: "init"))
    }

    func testNotAnInitCommand() {
        XCTAssertEqual(F.error(decoding: []), .notAnInitCommand("the packet holds neither command nor signed_command"))
        XCTAssertEqual(F.error(decoding: F.field(1, bytes: F.field(1, 0) + F.field(2, bytes: []))), .notAnInitCommand("the command's op_code is RESET"))
        XCTAssertEqual(F.error(decoding: F.field(1, bytes: [])), .notAnInitCommand("the command has no op_code"))
        XCTAssertEqual(
            F.error(decoding: F.field(1, bytes: []) + F.field(2, bytes: [])), .notAnInitCommand("the packet holds both command and signed_command"))
    }

    func testTooLarge() {
        XCTAssertEqual(F.error(decoding: [UInt8](repeating: 0, count: 5000)), .tooLarge(size: 5000, limit: 4096))
    }

    func testMessagesNameTheOffsetAndWhatToDo() {
        let error = InitPacketError.lengthPastEnd(offset: 1, length: 5, available: 2)
        XCTAssertEqual(
            error.description, "byte 1: a field of 5 bytes where only 2 are left; the init packet (.dat) is damaged or not a Nordic DFU init packet")
    }
}
