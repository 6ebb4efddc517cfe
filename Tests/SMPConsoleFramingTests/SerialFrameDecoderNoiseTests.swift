import SMPConsoleFraming
import SMPTestSupport
import XCTest

/// Console output around and between the lines of SMP frames: skipped, counted, and never the
/// cause of a lost frame.
final class SerialFrameDecoderNoiseTests: XCTestCase {
    /// Random log lines, prompts, CR/LF variants and binary garbage (with stray 0x06 and 0x04)
    /// before, between and inside frames (between their lines), fed in every kind of chunking:
    /// every frame intact, every noise byte counted as console.
    func testNoiseBetweenAndInsideFrames() {
        var random = SplitMix64(seed: 0xA11CE)
        var noise = ConsoleNoise(random: SplitMix64(seed: 0xB0B))
        var messages: [[UInt8]] = []
        var stream: [UInt8] = []
        var noiseBytes = 0
        var lineBytes = 0
        for _ in 0..<300 {
            let message = Framing.message(random.oneIn(5) ? random.below(2000) : random.below(200), &random)
            messages.append(message)
            let encoder = SerialFrameEncoder(
                lineLength: random.oneIn(2) ? 127 : 16 + random.below(100),
                style: random.oneIn(2) ? .client : .zephyrDevice)
            for line in encoder.lines(for: message) {
                let gap = noise.gap(pieces: random.below(4))
                stream += gap + line
                noiseBytes += gap.count
                lineBytes += line.count
            }
        }
        let tail = noise.gap(pieces: 3)
        stream += tail
        noiseBytes += tail.count
        XCTAssertGreaterThan(noiseBytes, 10_000)

        let expected = Framing.statistics(packets: messages.count, consoleBytes: noiseBytes, lineBytes: lineBytes)
        for (name, chunk) in [("whole", { stream.count }), ("1 byte", { 1 }), ("random", { 1 + random.below(97) })] {
            var decoder = SerialFrameDecoder()
            let decoded = Framing.feed(stream, to: &decoder, chunks: chunk)
            XCTAssertEqual(decoded.count, messages.count, name)
            XCTAssertTrue(decoded == messages, name)
            XCTAssertEqual(decoder.statistics, expected, name)
        }
    }

    /// A start marker right after garbage, with no `\n` in between (a log line cut by a reset).
    func testMarkerRightAfterGarbageWithoutNewline() {
        let frame = SerialFrameEncoder().encode(Framing.echoRequest)
        let prefixes: [[UInt8]] = [
            Array("[00:00:01.000,000] <inf> app: half a li".utf8),
            Array("uart:~$ ".utf8),
            [0x06], [0x04], [0x06, 0x06], [0x04, 0x04], [0x06, 0x04], [0x04, 0x06], [0x09, 0x14, 0x06],
            [0xFF, 0x00, 0x06, 0x0A, 0x0D, 0x04],
            Array("ABCD".utf8),  // looks like base64, but there is no marker before it
        ]
        for prefix in prefixes {
            let (messages, statistics) = Framing.decode(prefix + frame)
            XCTAssertEqual(messages, [Framing.echoRequest], "\(prefix)")
            XCTAssertEqual(
                statistics, Framing.statistics(packets: 1, consoleBytes: prefix.count, lineBytes: frame.count), "\(prefix)")
        }
    }

    /// A marker pair split across reads (0x06 | 0x09) is found; a lone 0x06 or 0x04 at the end of
    /// a read is console once the next read shows it starts nothing.
    func testMarkerSplitAcrossReads() {
        let frame = SerialFrameEncoder().encode(Framing.echoRequest)
        var decoder = SerialFrameDecoder()
        XCTAssertEqual(decoder.feed(Array("log".utf8) + [0x06]), [])
        XCTAssertEqual(decoder.feed(frame.dropFirst()), [Framing.echoRequest])
        XCTAssertEqual(decoder.feed([0x04]), [])
        XCTAssertEqual(decoder.feed([0x06]), [])
        XCTAssertEqual(decoder.feed(frame.dropFirst()), [Framing.echoRequest])
        XCTAssertEqual(
            decoder.statistics, Framing.statistics(packets: 2, consoleBytes: 4, lineBytes: 2 * frame.count))
    }

    /// Console output only: nothing delivered, everything counted as console.
    func testConsoleOnly() {
        let text = Array("*** Booting Zephyr OS ***\r\nuart:~$ help\r\n\u{06}\u{04}\u{06}x\u{04}y\n".utf8)
        let (messages, statistics) = Framing.decode(text)
        XCTAssertEqual(messages, [])
        XCTAssertEqual(statistics, Framing.statistics(consoleBytes: text.count))
    }

    /// A console line between the lines of one frame does not disturb it, even without `\n`.
    func testLogLineInsideAFrame() {
        let lines = SerialFrameEncoder().lines(for: [UInt8](repeating: 0x42, count: 300))
        XCTAssertEqual(lines.count, 4)
        let log = Array("[00:00:02.000,000] <dbg> flash: write\r\n".utf8)
        let cut = Array("half".utf8)
        let stream = lines[0] + log + lines[1] + cut + lines[2] + [0x06] + lines[3]
        let (messages, statistics) = Framing.decode(stream)
        XCTAssertEqual(messages, [[UInt8](repeating: 0x42, count: 300)])
        XCTAssertEqual(statistics.consoleBytes, log.count + cut.count + 1)
        XCTAssertEqual(statistics.packets, 1)
    }
}
