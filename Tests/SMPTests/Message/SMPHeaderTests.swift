import XCTest
@testable import SMP

final class SMPHeaderTests: XCTestCase {
    // docs/protocol/examples.md §21.1 worked examples, byte for byte.

    func testV2EchoWriteHeader() throws {
        let header = SMPHeader(operation: .write, version: .v2, length: 9, group: .os, sequence: 0x42, command: 0)
        XCTAssertEqual(header.bytes, hex("0a 00 00 09 00 00 42 00"))
        XCTAssertEqual(try SMPHeader(decoding: hex("0a 00 00 09 00 00 42 00")), header)
    }

    func testV2ImageStateReadHeader() throws {
        let header = SMPHeader(operation: .read, length: 1, group: .image, sequence: 1, command: 0)
        XCTAssertEqual(header.bytes, hex("08 00 00 01 00 01 01 00"))
        XCTAssertEqual(try SMPHeader(decoding: header.bytes), header)
    }

    func testV2ResetHeader() throws {
        let header = SMPHeader(operation: .write, length: 1, group: .os, sequence: 2, command: 5)
        XCTAssertEqual(header.bytes, hex("0a 00 00 01 00 00 02 05"))
    }

    func testV2ParametersReadHeader() throws {
        let header = SMPHeader(operation: .read, length: 1, group: .os, sequence: 3, command: 6)
        XCTAssertEqual(header.bytes, hex("08 00 00 01 00 00 03 06"))
    }

    func testV1ErrorResponseHeader() throws {
        let header = try SMPHeader(decoding: hex("01 00 00 05 00 00 03 06"))
        XCTAssertEqual(header.operation, .readResponse)
        XCTAssertEqual(header.version, .v1)
        XCTAssertEqual(header.versionBits, 0)
        XCTAssertEqual(header.length, 5)
        XCTAssertEqual(header.group, .os)
        XCTAssertEqual(header.sequence, 3)
        XCTAssertEqual(header.command, 6)
    }

    func testV2GroupErrorResponseHeader() throws {
        let header = try SMPHeader(decoding: hex("0b 00 00 11 00 01 04 01"))
        XCTAssertEqual(header.operation, .writeResponse)
        XCTAssertEqual(header.version, .v2)
        XCTAssertEqual(header.length, 0x11)
        XCTAssertEqual(header.group, .image)
        XCTAssertEqual(header.sequence, 4)
        XCTAssertEqual(header.command, 1)
        XCTAssertEqual(header.bytes, hex("0b 00 00 11 00 01 04 01"))
    }

    func testByteZeroForEachVersionAndOperation() {
        func byte0(_ op: SMPOperation, _ version: SMPProtocolVersion) -> UInt8 {
            SMPHeader(operation: op, version: version, length: 0, group: .os, sequence: 0, command: 0).bytes[0]
        }
        XCTAssertEqual(byte0(.read, .v2), 0x08)
        XCTAssertEqual(byte0(.write, .v2), 0x0A)
        XCTAssertEqual(byte0(.read, .v1), 0x00)
        XCTAssertEqual(byte0(.write, .v1), 0x02)
        XCTAssertEqual(byte0(.readResponse, .v2), 0x09)
        XCTAssertEqual(byte0(.writeResponse, .v2), 0x0B)
        XCTAssertEqual(byte0(.readResponse, .v1), 0x01)
        XCTAssertEqual(byte0(.writeResponse, .v1), 0x03)
    }

    func testMultiByteFieldsAreBigEndian() throws {
        let header = SMPHeader(operation: .read, length: 0x1234, group: SMPGroup(rawValue: 0xABCD), sequence: 0xFE, command: 0x7F)
        XCTAssertEqual(header.bytes, hex("08 00 12 34 ab cd fe 7f"))
        let decoded = try SMPHeader(decoding: header.bytes)
        XCTAssertEqual(decoded.length, 0x1234)
        XCTAssertEqual(decoded.group.rawValue, 0xABCD)
        XCTAssertEqual(decoded.sequence, 0xFE)
        XCTAssertEqual(decoded.command, 0x7F)
    }

    func testReservedVersionBitsAreKeptAsRead() throws {
        let two = try SMPHeader(decoding: hex("11 00 00 00 00 00 00 00"))
        XCTAssertEqual(two.versionBits, 2)
        XCTAssertNil(two.version)
        XCTAssertEqual(two.operation, .readResponse)
        XCTAssertEqual(two.bytes[0], 0x11)

        let three = try SMPHeader(decoding: hex("1b 00 00 00 00 00 00 00"))
        XCTAssertEqual(three.versionBits, 3)
        XCTAssertNil(three.version)
        XCTAssertEqual(three.operation, .writeResponse)
    }

    func testReservedBitsFiveToSevenAreIgnoredOnDecodeAndSentAsZero() throws {
        let header = try SMPHeader(decoding: hex("e9 00 00 00 00 00 00 00"))
        XCTAssertEqual(header.operation, .readResponse)
        XCTAssertEqual(header.version, .v2)
        XCTAssertEqual(header.bytes[0], 0x09)
    }

    func testEncodingMasksVersionBitsToTwoBits() {
        var header = SMPHeader(operation: .write, length: 0, group: .os, sequence: 0, command: 0)
        header.versionBits = 0xFF
        XCTAssertEqual(header.bytes[0], 0x1A)
    }

    func testReservedOperationsAreRejected() {
        for op: UInt8 in 4...7 {
            for version: UInt8 in 0...1 {
                let frame = [version << 3 | op, 0, 0, 0, 0, 0, 0, 0]
                XCTAssertEqual(thrownError { () throws(SMPFrameError) in try SMPHeader(decoding: frame) }, .invalidOperation(op))
            }
        }
    }

    func testFlagsAreKept() throws {
        let header = try SMPHeader(decoding: hex("09 80 00 00 00 00 05 06"))
        XCTAssertEqual(header.flags, 0x80)
        XCTAssertEqual(header.bytes, hex("09 80 00 00 00 00 05 06"))
        XCTAssertTrue(header.description.contains("flags=0x80"), header.description)
        XCTAssertEqual(SMPHeader(operation: .read, length: 0, group: .os, sequence: 0, command: 0).bytes[1], 0)
        XCTAssertFalse(SMPHeader(operation: .read, length: 0, group: .os, sequence: 0, command: 0).description.contains("flags"))
    }

    func testTruncatedInput() {
        let full = hex("08 00 00 01 00 00 03 06")
        for count in 0..<8 {
            let error = thrownError { () throws(SMPFrameError) in try SMPHeader(decoding: Array(full.prefix(count))) }
            XCTAssertEqual(error, .truncatedHeader(count: count))
        }
        XCTAssertEqual(SMPFrameError.truncatedHeader(count: 1).description, "truncated header (1 byte, 8 needed)")
        XCTAssertEqual(SMPFrameError.truncatedHeader(count: 3).description, "truncated header (3 bytes, 8 needed)")
    }

    func testDecodesFromTheStartOfALongerSlice() throws {
        let frame = hex("ff ff 08 00 00 01 00 00 03 06 a0")
        let header = try SMPHeader(decoding: frame[2...])
        XCTAssertEqual(header.command, 6)
        XCTAssertEqual(header.sequence, 3)
        XCTAssertEqual(header.length, 1)
    }

    func testDescriptionNamesTheProtocolVersionNotTheRawBits() throws {
        let v2 = SMPHeader(operation: .write, length: 9, group: .os, sequence: 66, command: 0)
        XCTAssertEqual(v2.description, "write v2 group=0 cmd=0 seq=66 len=9")
        let v1 = SMPHeader(operation: .readResponse, version: .v1, length: 5, group: .os, sequence: 3, command: 6)
        XCTAssertEqual(v1.description, "read-response v1 group=0 cmd=6 seq=3 len=5")
        let reserved = try SMPHeader(decoding: hex("11 00 00 00 00 00 00 00"))
        XCTAssertEqual(reserved.description, "read-response version-bits=2 group=0 cmd=0 seq=0 len=0")
    }
}
