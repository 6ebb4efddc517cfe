import NordicDFU
import XCTest

/// The HCI packets of the legacy serial bootloader: the header layout, its checksum, the CRC-16,
/// sequence numbers wrapping at 8, and bad input refused with a reason, never a crash.
final class HCIPacketTests: XCTestCase {
    /// Start for a 2048-byte application, sequence 1: the header and CRC worked out by hand from
    /// the SDK's layout (`hci_transport.c`) and an independent CRC-16/CCITT-FALSE.
    private let start: [UInt8] = [0xD1, 0x4E, 0x01, 0xE0] + [3, 0, 0, 0, 4, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + [0x00, 0x08, 0, 0] + [0xCA, 0x06]

    func testAStartPacketEncodesAsTheSDKLaysItOut() throws {
        let payload = LegacyDFUSerialPacket.start(mode: 4, softDevice: 0, bootloader: 0, application: 2048).bytes
        XCTAssertEqual(try HCIPacket.dfu(sequenceNumber: 1, payload: payload).encoded(), start)
    }

    func testDecodingReadsTheFieldsBack() throws {
        let packet = try HCIPacket.decode(start, maximumPayload: 516)
        XCTAssertEqual(packet.sequenceNumber, 1)
        XCTAssertEqual(packet.acknowledgementNumber, 2)
        XCTAssertTrue(packet.isReliable)
        XCTAssertTrue(packet.hasDataIntegrityCheck)
        XCTAssertEqual(packet.type, HCIPacket.vendorSpecificType)
        XCTAssertEqual(LegacyDFUSerialPacket.parse(packet.payload), .start(mode: 4, softDevice: 0, bootloader: 0, application: 2048))
    }

    func testSequenceNumbersWrapAtEight() throws {
        XCTAssertEqual(HCIPacket.next(7), 0)
        XCTAssertEqual(HCIPacket.next(3), 4)
        let last = try HCIPacket.dfu(sequenceNumber: 7, payload: LegacyDFUSerialPacket.stop.bytes).encoded()
        // Sequence 7, acknowledgement 0, both flags; type 14, length 4: worked out by hand.
        XCTAssertEqual(Array(last.prefix(4)), [0xC7, 0x4E, 0x00, 0xEB])
        let decoded = try HCIPacket.decode(last, maximumPayload: 516)
        XCTAssertEqual(decoded.sequenceNumber, 7)
        XCTAssertEqual(decoded.acknowledgementNumber, 0)
        XCTAssertEqual(LegacyDFUSerialPacket.parse(decoded.payload), .stop)
    }

    func testAnAcknowledgementIsAHeaderAlone() throws {
        let bytes = try HCIPacket.acknowledgement(expecting: 5).encoded()
        XCTAssertEqual(bytes, [0x28, 0x00, 0x00, 0xD8])
        let packet = try HCIPacket.decode(bytes, maximumPayload: 0)
        XCTAssertTrue(packet.isAcknowledgement)
        XCTAssertEqual(packet.acknowledgementNumber, 5)
        XCTAssertFalse(packet.isReliable)
    }

    func testEveryPayloadSizeUpToTheLimitRoundTrips() throws {
        for size in [0, 1, 15, 16, 255, 256, 512, 516, HCIPacket.maximumLengthField] {
            let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let packet = HCIPacket.dfu(sequenceNumber: UInt8(size % 8), payload: payload)
            XCTAssertEqual(try HCIPacket.decode(packet.encoded(), maximumPayload: HCIPacket.maximumLengthField), packet, "\(size) bytes")
        }
    }

    func testBadInputIsRefusedWithItsReason() throws {
        var wrongHeader = start
        wrongHeader[3] &+= 1
        var wrongCRC = start
        wrongCRC[wrongCRC.count - 1] ^= 0x01
        var wrongPayload = start
        wrongPayload[10] ^= 0x80
        // Length 4095 named by a header whose checksum adds up, with 4 bytes after it.
        let huge: [UInt8] = [0xD1, 0xFE, 0xFF, 0x32, 0, 0, 0, 0]
        let cases: [(String, [UInt8], Int, HCIPacketError.Kind)] = [
            ("empty", [], 516, .truncated),
            ("three bytes", [0xD1, 0x4E, 0x01], 516, .truncated),
            ("header checksum", wrongHeader, 516, .headerChecksum),
            ("CRC", wrongCRC, 516, .crcMismatch),
            ("damaged payload", wrongPayload, 516, .crcMismatch),
            ("cut short", Array(start.dropLast(3)), 516, .lengthMismatch),
            ("a byte too many", start + [0], 516, .lengthMismatch),
            ("length beyond the limit", huge, 516, .payloadTooLong),
            ("payload beyond a smaller limit", start, 19, .payloadTooLong),
        ]
        for (name, bytes, limit, kind) in cases {
            XCTAssertThrowsError(try HCIPacket.decode(bytes, maximumPayload: limit), name) { error in
                XCTAssertEqual((error as? HCIPacketError)?.kind, kind, "\(name): \(error)")
                XCTAssertTrue("\(error)".hasPrefix("not an HCI packet"), "\(error)")
            }
        }
        XCTAssertThrowsError(try HCIPacket.dfu(sequenceNumber: 0, payload: [UInt8](repeating: 0, count: 4096)).encoded()) { error in
            XCTAssertEqual((error as? HCIPacketError)?.kind, .payloadTooLong)
        }
    }

    func testDFUPacketsRoundTripAndShortOnesAreNotRead() {
        let packets: [LegacyDFUSerialPacket] = [
            .start(mode: 3, softDevice: 2000, bootloader: 1000, application: 0), .initPacket([1, 2, 3, 4, 5, 6]),
            .data([UInt8](repeating: 0xAB, count: 512)), .stop, .probe,
        ]
        for packet in packets { XCTAssertEqual(LegacyDFUSerialPacket.parse(packet.bytes), packet, "\(packet)") }
        XCTAssertEqual(LegacyDFUSerialPacket.initPacket([9]).bytes, [1, 0, 0, 0, 9, 0, 0], "two pad bytes follow the init packet")
        for bytes: [UInt8] in [[], [3, 0, 0], [3, 0, 0, 0, 4], [4, 0, 0, 0], [1, 0, 0, 0, 7], [4, 0, 0, 0] + [UInt8](repeating: 0, count: 513), [9, 0, 0, 0]] {
            XCTAssertNil(LegacyDFUSerialPacket.parse(bytes), "\(bytes.prefix(8))")
        }
    }
}
