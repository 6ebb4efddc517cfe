import Foundation
import SMPConsoleFraming
import SMPTestSupport
import XCTest

/// `.zephyrDevice` splits exactly as Zephyr's `mcumgr_serial_tx_pkt`: 93 raw bytes on the first
/// line (length + 91 message bytes), at most 90 on the next, the CRC never split.
final class ZephyrDeviceSplitTests: XCTestCase {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// A transcription of `mcumgr_serial_tx_pkt` (subsys/mgmt/mcumgr/transport/src/serial_util.c):
    /// the same control flow and `int` arithmetic, each triplet base64-encoded on its own as
    /// `mcumgr_serial_tx_small` does (by a base64 of its own, checked against Foundation below).
    private func zephyrTxPkt(_ data: [UInt8], maxFrame: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count * 2 + 64)
        func txSmall(_ raw: [UInt8]) { out += Self.base64Small(raw) }
        let len = data.count
        var first = true
        var last = false
        var srcOff = 0
        var maxInput = ((maxFrame - 3) >> 2) * 3
        let crc = CRC16XMODEM.checksum(data)
        var marker: [UInt8] = [0x06, 0x09]
        while srcOff < len {
            out += marker
            if first {
                let total = len + 2
                txSmall([UInt8(total >> 8), UInt8(total & 0xFF), data[0]])
                srcOff += 1
                maxInput -= 3
            }
            var toProcess = min(maxInput, len - srcOff)
            let reminder = maxInput - (len - srcOff)
            if reminder == 0 || reminder == 1 {
                toProcess -= 1
                last = false
            } else if reminder >= 2 {
                last = true
            }
            while toProcess >= 3 {
                txSmall(Array(data[srcOff..<(srcOff + 3)]))
                srcOff += 3
                toProcess -= 3
            }
            if last {
                switch len - srcOff {
                case 0:
                    txSmall([UInt8(crc >> 8), UInt8(crc & 0xFF)])
                case 1:
                    txSmall([data[srcOff], UInt8(crc >> 8), UInt8(crc & 0xFF)])
                    srcOff += 1
                case 2:
                    txSmall([data[srcOff], data[srcOff + 1], UInt8(crc >> 8)])
                    srcOff += 2
                    txSmall([UInt8(crc & 0xFF)])
                default:
                    break
                }
            }
            out.append(0x0A)
            marker = [0x04, 0x14]
            first = false
        }
        return out
    }

    /// base64 of 1–3 bytes: one quantum.
    private static func base64Small(_ raw: [UInt8]) -> [UInt8] {
        let b0 = Int(raw[0])
        let b1 = raw.count > 1 ? Int(raw[1]) : 0
        let b2 = raw.count > 2 ? Int(raw[2]) : 0
        let bits = b0 << 16 | b1 << 8 | b2
        let pad = UInt8(ascii: "=")
        return [
            alphabet[bits >> 18], alphabet[(bits >> 12) & 0x3F],
            raw.count > 1 ? alphabet[(bits >> 6) & 0x3F] : pad, raw.count > 2 ? alphabet[bits & 0x3F] : pad,
        ]
    }

    func testSmallBase64MatchesFoundation() {
        var random = SplitMix64(seed: 3)
        for count in [1, 2, 3] {
            for _ in 0..<300 {
                let raw = Framing.message(count, &random)
                XCTAssertEqual(Self.base64Small(raw), Array(Data(raw).base64EncodedString().utf8))
            }
        }
    }

    /// Byte-identical to the transcription for several frame sizes: every message size up to 800
    /// (several whole periods of the line layout for each, and the length's second byte turning
    /// over at 254), then every 13th size up to 3000.
    func testByteIdenticalToZephyr() {
        var random = SplitMix64(seed: 0x0609)
        let data = Framing.message(3000, &random)
        for maxFrame in [127, 128, 16, 17, 18, 19, 31, 255] {
            let encoder = SerialFrameEncoder(lineLength: maxFrame, style: .zephyrDevice)
            var failures = 0
            for count in Array(1...800) + Array(stride(from: 801, through: 3000, by: 13)) {
                let message = Array(data.prefix(count))
                if encoder.encode(message) != zephyrTxPkt(message, maxFrame: maxFrame) {
                    failures += 1
                    if failures <= 5 { XCTFail("MCUMGR_SERIAL_MAX_FRAME \(maxFrame), \(count) bytes") }
                }
            }
            XCTAssertEqual(failures, 0, "MCUMGR_SERIAL_MAX_FRAME \(maxFrame)")
        }
    }

    /// Raw (decoded) bytes per line for message sizes around the boundaries of 127-byte lines.
    func testRawBytesPerLineAroundBoundaries() {
        let expected: [Int: [Int]] = [
            1: [5],
            88: [92],
            89: [93],  // fills the first line exactly: length 2 + 89 + CRC 2
            90: [90, 4],  // CRC would not fit whole: 2 message bytes go to the next line with it
            91: [90, 5],
            92: [93, 3],
            93: [93, 4],
            179: [93, 90],
            180: [93, 87, 4],
            181: [93, 87, 5],
            182: [93, 90, 3],
            269: [93, 90, 90],
            270: [93, 90, 87, 4],
        ]
        let encoder = SerialFrameEncoder(style: .zephyrDevice)
        for (count, raw) in expected.sorted(by: { $0.key < $1.key }) {
            let lines = encoder.lines(for: [UInt8](repeating: 0x5A, count: count))
            let decoded = lines.compactMap { Framing.split(line: $0).flatMap { Framing.base64Decode($0.text) } }
            XCTAssertEqual(decoded.map(\.count), raw, "\(count)-byte message")
            XCTAssertLessThanOrEqual(lines.map(\.count).max() ?? 0, 127)
        }
    }

    /// For every size, the first line carries at most 93 raw bytes and later ones at most 90, and
    /// the two CRC bytes are on the same (last) line.
    func testLimitsAndCRCPlacementForEverySize() {
        let encoder = SerialFrameEncoder(style: .zephyrDevice)
        for count in 1...1000 {
            let lines = encoder.lines(for: [UInt8](repeating: 0xC3, count: count))
            let raw = lines.compactMap { Framing.split(line: $0).flatMap { Framing.base64Decode($0.text) } }
            XCTAssertEqual(raw.count, lines.count)
            XCTAssertLessThanOrEqual(raw.first?.count ?? 0, 93, "\(count)")
            XCTAssertLessThanOrEqual(raw.dropFirst().map(\.count).max() ?? 0, 90, "\(count)")
            XCTAssertGreaterThanOrEqual(raw.last?.count ?? 0, 2, "CRC split for \(count)")
            XCTAssertEqual(raw.reduce(0) { $0 + $1.count }, count + 4)
        }
    }
}
