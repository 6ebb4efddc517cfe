import SMPConsoleFraming
import SMPTestSupport
import XCTest

/// Broken frames are dropped and counted by cause, and the next good frame still decodes.
final class SerialFrameDecoderErrorTests: XCTestCase {
    private let good = SerialFrameEncoder().encode(Framing.echoRequest)
    /// A message of 4 lines (124 + 124 + 124 + 36 characters).
    private let message = [UInt8](repeating: 0x33, count: 300)
    private var lines: [[UInt8]] { SerialFrameEncoder().lines(for: message) }

    /// Decodes `broken + good frame`; checks the good frame comes out and returns the statistics.
    private func decodeThenGood(_ broken: [UInt8], file: StaticString = #filePath, line: UInt = #line)
        -> SerialFrameDecoder.Statistics
    {
        for chunk in [broken.count + good.count, 1, 5] {
            var decoder = SerialFrameDecoder()
            let messages = Framing.feed(broken + good, to: &decoder) { chunk }
            XCTAssertEqual(messages, [Framing.echoRequest], "chunk \(chunk)", file: file, line: line)
        }
        var decoder = SerialFrameDecoder()
        _ = decoder.feed(broken + good)
        XCTAssertEqual(decoder.statistics.bytes, broken.count + good.count, file: file, line: line)
        return decoder.statistics
    }

    /// A line carrying the given packet bytes (not necessarily a valid packet).
    private func line(marker: [UInt8], packetBytes: [UInt8]) -> [UInt8] {
        marker + base64(packetBytes) + [0x0A]
    }

    func testFlippedBitIsACRCError() {
        var random = SplitMix64(seed: 1)
        for _ in 0..<200 {
            let packet = Framing.packet(message)
            var corrupted = packet
            let bit = 16 + random.below((packet.count - 2) * 8)  // not in total_len
            corrupted[bit / 8] ^= 1 << (bit % 8)
            let broken = line(marker: [0x06, 0x09], packetBytes: corrupted)
            let statistics = decodeThenGood(broken)
            XCTAssertEqual(statistics.crcErrors, 1)
            XCTAssertEqual(statistics.packets, 1)
            XCTAssertEqual(statistics.droppedPackets, 1)
        }
    }

    func testBadBase64() {
        let cases: [[UInt8]] = [
            Array(lines[0].prefix(10)) + Array("!".utf8) + lines[0].dropFirst(11),  // a character outside the alphabet
            Array(lines[0].prefix(31)) + [0x0A],  // a partial quantum (29 characters)
            [0x06, 0x09] + Array("ABMKA".utf8) + [0x0A],  // 5 characters
            [0x06, 0x09] + Array("AB=KAAAJ".utf8) + [0x0A],  // padding in the middle of a quantum
            [0x06, 0x09] + Array("A===".utf8) + [0x0A],  // too much padding
            [0x06, 0x09] + Array("ABM=AAAA".utf8) + [0x0A],  // data after padding
            [0x06, 0x09] + Array("ABMKAAAJ".utf8) + Array(" log text\n".utf8),  // a line cut by console text
            lines[0] + Array(lines[1].prefix(20)) + Array("\u{1B}[0m".utf8) + [0x0A],  // a continuation cut short
        ]
        for (index, broken) in cases.enumerated() {
            let statistics = decodeThenGood(broken)
            XCTAssertEqual(statistics.base64Errors, 1, "case \(index): \(statistics)")
            XCTAssertEqual(statistics.droppedPackets, 1, "case \(index)")
        }
        // The remaining lines of a dropped packet are orphans.
        let statistics = decodeThenGood(Array(lines[0].prefix(9)) + [0x0A] + lines[1] + lines[2])
        XCTAssertEqual(statistics.base64Errors, 1)
        XCTAssertEqual(statistics.orphanContinuations, 2)
    }

    func testWrongLength() {
        let packet = Framing.packet(message)
        let total = message.count + 2
        func withTotal(_ value: Int) -> [UInt8] {
            [UInt8(value >> 8), UInt8(value & 0xFF)] + packet.dropFirst(2)
        }
        let cases: [(String, [UInt8])] = [
            ("declares more than sent, a new packet follows", line(marker: [0x06, 0x09], packetBytes: withTotal(total + 1))),
            ("declares less than sent", line(marker: [0x06, 0x09], packetBytes: withTotal(total - 3))),
            ("smaller than the CRC", line(marker: [0x06, 0x09], packetBytes: [0x00, 0x01, 0xAA])),
            ("zero", line(marker: [0x06, 0x09], packetBytes: [0x00, 0x00, 0x00])),
            ("only one byte of total_len", line(marker: [0x06, 0x09], packetBytes: [0x00])),
            ("empty first line", [0x06, 0x09, 0x0A]),
            (
                "a continuation with too much",
                lines[0] + lines[1] + lines[2]
                    + line(marker: [0x04, 0x14], packetBytes: packet.suffix(packet.count - 3 * 93) + [0, 0, 0])
            ),
        ]
        for (name, broken) in cases {
            var statistics = decodeThenGood(broken)
            if name.hasPrefix("declares more") {
                // Incomplete, then given up when the good frame starts.
                XCTAssertEqual(statistics.abandonedPackets, 1, name)
                statistics.abandonedPackets = 0
                statistics.lengthErrors += 1
            }
            XCTAssertEqual(statistics.lengthErrors, 1, "\(name): \(statistics)")
            XCTAssertEqual(statistics.droppedPackets, 1, name)
        }
    }

    func testLargerThanTheMaximumMessageSize() {
        let frame = SerialFrameEncoder().encode([UInt8](repeating: 1, count: 381))
        var decoder = SerialFrameDecoder(maximumMessageSize: 380)
        XCTAssertEqual(decoder.feed(frame + good), [Framing.echoRequest])
        XCTAssertEqual(decoder.statistics.lengthErrors, 1)
        XCTAssertEqual(decoder.statistics.orphanContinuations, 4, "the lines after the first")
        var exact = SerialFrameDecoder(maximumMessageSize: 381)
        XCTAssertEqual(exact.feed(frame), [[UInt8](repeating: 1, count: 381)])
    }

    func testOrphanContinuation() {
        let statistics = decodeThenGood(lines[2] + lines[3])
        XCTAssertEqual(statistics.orphanContinuations, 2)
        XCTAssertEqual(statistics.droppedPackets, 0)
        // After a complete packet, a further continuation is an orphan too.
        let (messages, again) = Framing.decode(SerialFrameEncoder().encode(message) + lines[1] + good)
        XCTAssertEqual(messages, [message, Framing.echoRequest])
        XCTAssertEqual(again.orphanContinuations, 1)
    }

    func testNewStartAbandonsAPartialPacket() {
        for cut in [1, 2, 3] {
            let statistics = decodeThenGood(Array(lines.prefix(cut).joined()))
            XCTAssertEqual(statistics.abandonedPackets, 1, "after \(cut) lines")
            XCTAssertEqual(statistics.droppedPackets, 1)
        }
        // A start marker in the middle of an SMP line (the sender was reset mid-line).
        let statistics = decodeThenGood(Array(lines[0].prefix(50)))
        XCTAssertEqual(statistics.abandonedPackets, 1)
        XCTAssertEqual(statistics.base64Errors, 0)
        XCTAssertEqual(statistics.consoleBytes, 0)
    }

    func testOversizeLine() {
        let long = SerialFrameEncoder(lineLength: 300).encode(message)
        var decoder = SerialFrameDecoder(maximumLineLength: 200)
        XCTAssertEqual(decoder.maximumLineLength, 200)
        XCTAssertEqual(decoder.feed(long + good), [Framing.echoRequest])
        XCTAssertEqual(decoder.statistics.oversizeLines, 1)
        XCTAssertEqual(decoder.statistics.orphanContinuations, 1)
        XCTAssertEqual(decoder.statistics.droppedPackets, 1)
        XCTAssertEqual(decoder.statistics.bytes, long.count + good.count)

        // A line of exactly the maximum (marker and \n included) is fine; one byte more is not.
        let lineOf127 = SerialFrameEncoder().lines(for: message)[0]
        XCTAssertEqual(lineOf127.count, 127)
        var exact = SerialFrameDecoder(maximumLineLength: 127)
        XCTAssertEqual(exact.feed(SerialFrameEncoder().encode(message)), [message])
        var tooShort = SerialFrameDecoder(maximumLineLength: 126)
        XCTAssertEqual(tooShort.feed(SerialFrameEncoder().encode(message) + good), [Framing.echoRequest])
        XCTAssertEqual(tooShort.statistics.oversizeLines, 1)
    }

    /// A bad frame between good ones costs only itself.
    func testErrorsBetweenGoodFrames() {
        var corrupted = SerialFrameEncoder().encode(message)
        corrupted[40] = corrupted[40] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let stream = good + corrupted + good + lines[1] + good + Array(lines[0].prefix(20)) + good
        let (messages, statistics) = Framing.decode(stream)
        XCTAssertEqual(messages, Array(repeating: Framing.echoRequest, count: 4))
        XCTAssertEqual(statistics.crcErrors, 1)
        XCTAssertEqual(statistics.orphanContinuations, 1)
        XCTAssertEqual(statistics.abandonedPackets, 1)
    }

    /// reset() drops a partial packet; the statistics stay.
    func testReset() {
        var decoder = SerialFrameDecoder()
        XCTAssertEqual(decoder.feed(lines[0] + lines[1]), [])
        decoder.reset()
        XCTAssertEqual(decoder.feed(lines[2] + lines[3]), [])
        XCTAssertEqual(decoder.statistics.orphanContinuations, 2)
        XCTAssertEqual(decoder.statistics.abandonedPackets, 0)
        XCTAssertEqual(decoder.feed(Array(lines[0].prefix(40))), [])
        decoder.reset()
        XCTAssertEqual(decoder.feed(good), [Framing.echoRequest])
        XCTAssertEqual(decoder.statistics.abandonedPackets, 0)
        XCTAssertEqual(decoder.statistics.bytes, 3 * 127 + lines[3].count + 40 + good.count)
    }

    private func base64(_ bytes: [UInt8]) -> [UInt8] {
        // Independent of the encoder under test.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for position in 0..<4 {
                out.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 0x3F] : UInt8(ascii: "="))
            }
            index += 3
        }
        return out
    }
}
