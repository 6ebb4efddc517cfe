import SMPConsoleFraming
import SMPTestSupport
import XCTest

/// CRC-16/XMODEM against the catalogue's check value and the worked example of docs/protocol/examples.md §21.2.
final class CRC16XMODEMTests: XCTestCase {
    func testCheckValue() {
        XCTAssertEqual(CRC16XMODEM.checksum(Array("123456789".utf8)), 0x31C3)
        XCTAssertEqual(CRC16XMODEM.checksum("123456789".utf8), 0x31C3)  // a non-array sequence
    }

    func testEmptyInputIsTheSeed() {
        XCTAssertEqual(CRC16XMODEM.checksum([]), 0)
        XCTAssertEqual(CRC16XMODEM.checksum([], seed: 0xBEEF), 0xBEEF)
    }

    func testWorkedExampleEchoRequest() {
        XCTAssertEqual(CRC16XMODEM.checksum(Framing.echoRequest), 0x4619)
    }

    func testResidueOfMessageAndItsChecksumIsZero() {
        XCTAssertEqual(CRC16XMODEM.checksum(Framing.echoRequest + [0x46, 0x19]), 0)
        var random = SplitMix64(seed: 16)
        for count in 0..<300 {
            let message = Framing.message(count, &random)
            let crc = CRC16XMODEM.checksum(message)
            XCTAssertEqual(CRC16XMODEM.checksum(message + [UInt8(crc >> 8), UInt8(crc & 0xFF)]), 0, "\(count) bytes")
        }
    }

    /// The table-driven CRC equals the bitwise reference of docs/protocol/examples.md §21.3, also when continued from a seed
    /// and when fed through the sequence path.
    func testMatchesBitwiseReferenceAndSeedsChain() {
        func reference(_ data: [UInt8], seed: UInt16 = 0) -> UInt16 {
            var crc = seed
            for byte in data {
                crc ^= UInt16(byte) << 8
                for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
            }
            return crc
        }
        var random = SplitMix64(seed: 0x1021)
        for _ in 0..<500 {
            let data = Framing.message(random.below(200), &random)
            let cut = random.below(data.count + 1)
            XCTAssertEqual(CRC16XMODEM.checksum(data), reference(data))
            XCTAssertEqual(CRC16XMODEM.checksum(data.lazy.map { $0 }), reference(data))
            XCTAssertEqual(CRC16XMODEM.checksum(data[cut...], seed: CRC16XMODEM.checksum(data[..<cut])), reference(data))
        }
    }

    /// Not CRC-16/CCITT-FALSE (init 0xFFFF), whose check value is 0x29B1.
    func testIsNotCCITTFalse() {
        XCTAssertNotEqual(CRC16XMODEM.checksum(Array("123456789".utf8)), 0x29B1)
        XCTAssertEqual(CRC16XMODEM.checksum(Array("123456789".utf8), seed: 0xFFFF), 0x29B1)
    }
}
