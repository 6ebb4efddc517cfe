import Foundation
import SMPConsoleFraming
import SMPTestSupport
import XCTest

/// Encoding then decoding gives the messages back, however the byte stream is cut into reads.
final class SerialFrameDecoderRoundTripTests: XCTestCase {
    /// Many random messages (0 bytes to a few KB) in both styles and random line lengths, as one
    /// stream, fed whole, one byte at a time, and in random chunks.
    func testRandomMessagesEveryChunking() {
        var random = SplitMix64(seed: 0x5EED)
        var messages: [[UInt8]] = []
        var stream: [UInt8] = []
        for _ in 0..<400 {
            let count = random.oneIn(4) ? random.below(4000) : random.below(300)
            let message = Framing.message(count, &random)
            let encoder = SerialFrameEncoder(
                lineLength: random.oneIn(3) ? 16 + random.below(300) : 127,
                style: random.oneIn(2) ? .client : .zephyrDevice)
            messages.append(message)
            stream += encoder.encode(message)
        }
        let expected = Framing.statistics(packets: messages.count, lineBytes: stream.count)

        let chunkings: [(String, () -> Int)] = [
            ("whole", { stream.count }),
            ("1 byte", { 1 }),
            ("2 bytes", { 2 }),
            ("1…7 bytes", { 1 + random.below(7) }),
            ("1…300 bytes", { 1 + random.below(300) }),
            ("1…5000 bytes", { 1 + random.below(5000) }),
        ]
        for (name, chunk) in chunkings {
            var decoder = SerialFrameDecoder()
            let decoded = Framing.feed(stream, to: &decoder, chunks: chunk)
            XCTAssertEqual(decoded.count, messages.count, name)
            XCTAssertTrue(decoded == messages, name)
            XCTAssertEqual(decoder.statistics, expected, name)
        }
    }

    /// Every possible cut of a two-line frame into two reads, and into three.
    func testEveryCutOfOneFrame() {
        var random = SplitMix64(seed: 7)
        let message = Framing.message(150, &random)
        let stream = SerialFrameEncoder().encode(message)
        for cut in 0...stream.count {
            var decoder = SerialFrameDecoder()
            let first = decoder.feed(stream[..<cut])
            let second = decoder.feed(stream[cut...])
            XCTAssertEqual(first + second, [message], "cut at \(cut)")
            XCTAssertEqual(first.isEmpty, cut < stream.count, "delivered only once the last \\n arrived")
        }
        for cut1 in stride(from: 0, through: stream.count, by: 5) {
            for cut2 in cut1...stream.count {
                var decoder = SerialFrameDecoder()
                var decoded = decoder.feed(stream[..<cut1])
                decoded += decoder.feed(stream[cut1..<cut2])
                decoded += decoder.feed(stream[cut2...])
                XCTAssertEqual(decoded, [message])
            }
        }
    }

    /// Several frames in one read come out in order; a sequence without contiguous storage works too.
    func testManyFramesInOneReadAndNonContiguousInput() {
        let messages: [[UInt8]] = (0..<20).map { [UInt8](repeating: UInt8($0), count: $0 * 17) }
        let stream = messages.flatMap { SerialFrameEncoder().encode($0) }
        var decoder = SerialFrameDecoder()
        XCTAssertEqual(decoder.feed(stream), messages)
        var lazyDecoder = SerialFrameDecoder()
        XCTAssertEqual(lazyDecoder.feed(stream.lazy.map { $0 }), messages)
        XCTAssertEqual(lazyDecoder.statistics, decoder.statistics)
    }

    /// The whole packet's base64 cut anywhere on 4-character boundaries, not only where our
    /// encoder cuts, decodes; so do lines that each carry their own padding.
    func testOtherSplitsOfTheBase64() {
        var random = SplitMix64(seed: 44)
        for _ in 0..<200 {
            let message = Framing.message(random.below(700), &random)
            let text = Array(SerialFrameEncoder(lineLength: 100_000).encode(message).dropFirst(2).dropLast())
            var stream: [UInt8] = []
            var offset = 0
            while offset < text.count {
                let end = min(text.count, offset + 4 * (1 + random.below(40)))
                stream += (offset == 0 ? [0x06, 0x09] : [0x04, 0x14]) + text[offset..<end] + [0x0A]
                offset = end
            }
            XCTAssertEqual(Framing.decode(stream).messages, [message])

            // Raw bytes split anywhere (the first line must hold the 2 length bytes, as Zephyr
            // requires), each piece base64-encoded with its own padding.
            let packet = Framing.packet(message)
            var padded: [UInt8] = []
            var start = 0
            while start < packet.count {
                let end = min(packet.count, start + (start == 0 ? 2 : 1) + random.below(60))
                padded += (start == 0 ? [0x06, 0x09] : [0x04, 0x14]) + base64(Array(packet[start..<end])) + [0x0A]
                start = end
            }
            XCTAssertEqual(Framing.decode(padded).messages, [message])
        }
    }

    /// `\r` before `\n` (a console that sends CR LF) is tolerated.
    func testCarriageReturnBeforeLineFeed() {
        let lines = SerialFrameEncoder().lines(for: [UInt8](repeating: 1, count: 200))
        let stream: [UInt8] = lines.flatMap { line -> [UInt8] in line.dropLast() + [0x0D, 0x0A] }
        let (messages, statistics) = Framing.decode(stream)
        XCTAssertEqual(messages, [[UInt8](repeating: 1, count: 200)])
        XCTAssertEqual(statistics, Framing.statistics(packets: 1, lineBytes: stream.count))
    }

    private func base64(_ bytes: [UInt8]) -> [UInt8] {
        Array(Data(bytes).base64EncodedString().utf8)
    }
}
